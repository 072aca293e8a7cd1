package dev.engram.neo4j;

import dev.engram.Scope;
import dev.engram.graph.TimeView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The predicates every read and delete shares. They are assembled from constant property names
 * only; every value (tenant, scope ids, instants) travels as a parameter. A scope contributes one
 * equality per id it sets, so the planner can seek the matching {@code (tenant, <scope id>)} index.
 */
final class Cypher {
  private Cypher() {}

  /**
   * {@code v.tenant = $tenant AND v.user_id = $user_id ...}: the rows of the tenant inside the
   * scope (every id the scope sets must equal the row's). Puts the values into {@code params}.
   */
  static String scope(String var, String tenant, Scope scope, Map<String, Object> params) {
    List<String> terms = new ArrayList<>(4);
    terms.add(var + ".tenant = $tenant");
    params.put("tenant", tenant);
    scope
        .userId()
        .ifPresent(
            id -> {
              terms.add(var + ".user_id = $user_id");
              params.put("user_id", id);
            });
    scope
        .agentId()
        .ifPresent(
            id -> {
              terms.add(var + ".agent_id = $agent_id");
              params.put("agent_id", id);
            });
    scope
        .runId()
        .ifPresent(
            id -> {
              terms.add(var + ".run_id = $run_id");
              params.put("run_id", id);
            });
    return String.join(" AND ", terms);
  }

  /**
   * {@code (v.normalized_name IN $names OR ...)}: the entity is known by one of the names in
   * parameter {@code $names}, by its normalised name or as an element of its {@code aliases} list
   * (absent on entities without aliases). No index covers list elements, so the alias half is
   * evaluated on the rows the other predicates select (a scope's entities, found through the {@code
   * (tenant, <scope id>)} indexes).
   */
  static String knownAs(String var) {
    return "("
        + var
        + ".normalized_name IN $names OR any(a IN coalesce("
        + var
        + ".aliases, []) WHERE a IN $names))";
  }

  /**
   * Neo4j's cosine similarity {@code (1 + cos) / 2} of the vector property {@code property} (for
   * example {@code e.embedding}) and {@code query}, for rows whose {@code <property>_dims} equals
   * the query's dimension count; 0.5 (a cosine of 0) for other rows and for every row if the query
   * is empty, zero or not finite. {@code vector.similarity.cosine} throws on such input, so it is
   * only evaluated where it is defined.
   */
  static String similarity(String property, float[] query, Map<String, Object> params) {
    int dims = Rows.usableDims(query);
    params.put("vector", Rows.floats(query));
    params.put("dims", dims == 0 ? -1 : dims);
    return "CASE WHEN "
        + property
        + "_dims = $dims THEN vector.similarity.cosine("
        + property
        + ", $vector)"
        + " ELSE 0.5 END";
  }

  /**
   * The relations the view admits, as {@link TimeView#admits} defines it: {@code valid_at}
   * inclusive, {@code invalid_at} exclusive, absent times unbounded; {@code true} if the view
   * includes invalidated relations. The view arrives resolved (see {@link
   * TimeView#resolvedInstant()}).
   */
  static String admits(String var, TimeView view, Map<String, Object> params) {
    if (view.includeInvalidated()) {
      return "true";
    }
    Instant at = view.resolvedInstant();
    params.put("as_of", Rows.time(at));
    return "("
        + var
        + ".valid_at IS NULL OR "
        + var
        + ".valid_at <= $as_of) AND ("
        + var
        + ".invalid_at IS NULL OR "
        + var
        + ".invalid_at > $as_of)";
  }
}

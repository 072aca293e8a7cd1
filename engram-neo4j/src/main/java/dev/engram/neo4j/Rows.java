package dev.engram.neo4j;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.Relation;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Value;

/**
 * Conversion between the graph model and property maps. Instants are stored as Neo4j {@code
 * DATETIME} in UTC (nanosecond precision, so they round-trip exactly); absent scope ids and times
 * as absent properties.
 *
 * <p>An embedding usable for cosine (non-empty, finite, not all zeros) is written as a float32
 * array through {@code db.create.set*VectorProperty}: it reads back exactly and loads about twice
 * as fast as a list of doubles, which is what a similarity scan spends its time on. Beside it,
 * {@code embedding_dims} (or {@code fact_embedding_dims}) holds its dimension count, or 0 for an
 * unusable vector, which is then stored as a plain list (the procedures reject it) and scores 0
 * against any query, as in the SQLite store.
 */
final class Rows {
  private Rows() {}

  /**
   * {@code {props, vector}}: the properties of an entity node, tenant included (absent values are
   * null so {@code SET e = props} drops them; no aliases is an absent {@code aliases}), and its
   * embedding if usable for cosine (null if not, and then it is among the properties).
   */
  static Map<String, Object> entity(String tenant, Entity e) {
    Map<String, Object> row = new HashMap<>();
    row.put("tenant", tenant);
    row.put("id", e.id());
    row.put("name", e.name());
    row.put("normalized_name", e.normalizedName());
    row.put("type", e.type());
    row.put("mentions", e.mentions());
    row.put("created_at", time(e.createdAt()));
    row.put("updated_at", time(e.updatedAt()));
    // Absent rather than an empty list, as on nodes written before entities had aliases.
    row.put("aliases", e.aliases().isEmpty() ? null : e.aliases());
    putScope(row, e.scope());
    return withVector(row, "embedding", e.embeddingView());
  }

  /**
   * {@code {source, target, props, vector}}: the endpoints' ids, the properties of the relationship
   * and its fact embedding if usable (as for entities).
   */
  static Map<String, Object> relation(String tenant, Relation r) {
    Map<String, Object> props = new HashMap<>();
    props.put("tenant", tenant);
    props.put("id", r.id());
    props.put("relation", r.name());
    props.put("fact", r.fact());
    props.put("valid_at", time(r.validAt()));
    props.put("invalid_at", time(r.invalidAt()));
    props.put("created_at", time(r.createdAt()));
    props.put("expired_at", time(r.expiredAt()));
    props.put("source_message_ids", r.sourceMessageIds());
    props.put("memory_ids", r.memoryIds());
    putScope(props, r.scope());
    Map<String, Object> row = withVector(props, "fact_embedding", r.factEmbeddingView());
    row.put("source", r.sourceId());
    row.put("target", r.targetId());
    return row;
  }

  /**
   * The dimension count of a vector usable for cosine: non-empty, finite, not all zeros; 0
   * otherwise.
   */
  static int usableDims(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    return sum > 0 && Double.isFinite(sum) ? v.length : 0;
  }

  private static Map<String, Object> withVector(Map<String, Object> props, String key, float[] v) {
    int dims = usableDims(v);
    props.put(key + "_dims", dims);
    Map<String, Object> row = new HashMap<>();
    if (dims > 0) {
      row.put("vector", floats(v));
    } else {
      props.put(key, floats(v));
      row.put("vector", null);
    }
    row.put("props", props);
    return row;
  }

  /** The entity of a node value. */
  static Entity entity(Value n) {
    return new Entity(
        n.get("id").asString(),
        n.get("name").asString(),
        n.get("normalized_name").asString(),
        n.get("type").asString(),
        floats(n.get("embedding")),
        n.get("mentions").asInt(),
        instant(n.get("created_at")),
        instant(n.get("updated_at")),
        scope(n),
        strings(n.get("aliases")));
  }

  /** The relation of a relationship value and its endpoints' ids. */
  static Relation relation(Value r, String sourceId, String targetId) {
    return new Relation(
        r.get("id").asString(),
        sourceId,
        r.get("relation").asString(),
        targetId,
        r.get("fact").asString(),
        floats(r.get("fact_embedding")),
        instant(r.get("valid_at")),
        instant(r.get("invalid_at")),
        instant(r.get("created_at")),
        instant(r.get("expired_at")),
        strings(r.get("source_message_ids")),
        strings(r.get("memory_ids")),
        scope(r));
  }

  /** A UTC datetime for a Cypher parameter, or null. */
  static OffsetDateTime time(Instant instant) {
    return instant == null ? null : OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  /** A float vector as a list parameter. */
  static List<Double> floats(float[] v) {
    List<Double> out = new ArrayList<>(v.length);
    for (float f : v) {
      out.add((double) f);
    }
    return out;
  }

  private static void putScope(Map<String, Object> row, Scope scope) {
    row.put("user_id", scope.userId().orElse(null));
    row.put("agent_id", scope.agentId().orElse(null));
    row.put("run_id", scope.runId().orElse(null));
  }

  private static Scope scope(Value v) {
    return Scope.of(
        optional(v.get("user_id")), optional(v.get("agent_id")), optional(v.get("run_id")));
  }

  private static String optional(Value v) {
    return v.isNull() ? null : v.asString();
  }

  private static Instant instant(Value v) {
    return v.isNull() ? null : v.asZonedDateTime().toInstant();
  }

  private static float[] floats(Value v) {
    if (v.isNull()) {
      return new float[0];
    }
    List<Object> list = v.asList();
    float[] out = new float[list.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = ((Number) list.get(i)).floatValue();
    }
    return out;
  }

  private static List<String> strings(Value v) {
    return v.isNull() ? List.of() : v.asList(Value::asString);
  }
}

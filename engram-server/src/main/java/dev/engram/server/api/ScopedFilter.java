package dev.engram.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.json.MemoryJson;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * mem0's request filters split into the scope they name and the remaining conditions. The scope ids
 * ({@code user_id}, {@code agent_id}, {@code run_id}, also camelCase) may stand at the top level or
 * as plain conditions inside a top-level {@code AND}; at least one is required, since every read is
 * scoped. A {@code {"metadata": {"key": value}}} condition becomes a condition on that metadata
 * key. {@code app_id} is refused: Engram has no app scope.
 */
public record ScopedFilter(Scope scope, Filter filter) {
  private static final Map<String, String> SCOPE_KEYS =
      Map.of(
          "user_id",
          "user_id",
          "userId",
          "user_id",
          "agent_id",
          "agent_id",
          "agentId",
          "agent_id",
          "run_id",
          "run_id",
          "runId",
          "run_id");

  public ScopedFilter {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(filter, "filter");
  }

  /** Splits a filters object; {@code field} names it in errors. */
  public static ScopedFilter parse(String field, JsonNode filters) {
    if (filters == null || filters.isNull()) {
      throw new ValidationException(field, "is required and must name user_id, agent_id or run_id");
    }
    if (!filters.isObject()) {
      throw new ValidationException(field, "must be a JSON object");
    }
    ObjectNode rest = MemoryJson.mapper().createObjectNode();
    String[] ids = new String[3];
    Iterator<Map.Entry<String, JsonNode>> it = filters.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (liftScope(field, e.getKey(), e.getValue(), ids)) {
        continue;
      }
      if (e.getKey().equals("AND") && e.getValue().isArray()) {
        ArrayNode kept = MemoryJson.mapper().createArrayNode();
        for (JsonNode part : e.getValue()) {
          if (part.isObject() && part.size() == 1) {
            Map.Entry<String, JsonNode> only = part.properties().iterator().next();
            if (liftScope(field, only.getKey(), only.getValue(), ids)) {
              continue;
            }
          }
          kept.add(rewriteMetadata(field, part));
        }
        if (!kept.isEmpty()) {
          rest.set("AND", kept);
        }
        continue;
      }
      putCondition(field, rest, e.getKey(), e.getValue());
    }
    if (ids[0] == null && ids[1] == null && ids[2] == null) {
      throw new ValidationException(
          field, "must name user_id, agent_id or run_id (every read is scoped)");
    }
    Scope scope = Scope.of(ids[0], ids[1], ids[2]);
    return new ScopedFilter(scope, rest.isEmpty() ? Filter.all() : Mem0Filters.parse(rest));
  }

  private static boolean liftScope(String field, String key, JsonNode value, String[] ids) {
    if (key.equals("app_id") || key.equals("appId")) {
      throw new ValidationException(
          field + ".app_id",
          "is not supported: Engram scopes are user_id, agent_id" + " and run_id");
    }
    String name = SCOPE_KEYS.get(key);
    if (name == null || !value.isTextual() || value.asText().equals("*")) {
      return false;
    }
    int i = name.equals("user_id") ? 0 : name.equals("agent_id") ? 1 : 2;
    if (ids[i] != null && !ids[i].equals(value.asText())) {
      throw new ValidationException(field + "." + name, "is given twice with different values");
    }
    ids[i] = value.asText();
    return true;
  }

  private static JsonNode rewriteMetadata(String field, JsonNode node) {
    if (!node.isObject()) {
      return node;
    }
    ObjectNode out = MemoryJson.mapper().createObjectNode();
    Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      putCondition(field, out, e.getKey(), e.getValue());
    }
    return out;
  }

  private static void putCondition(String field, ObjectNode out, String key, JsonNode value) {
    if (key.equals("metadata") && value.isObject()) {
      value.properties().forEach(m -> out.set(m.getKey(), m.getValue()));
      return;
    }
    if ((key.equals("AND") || key.equals("OR") || key.equals("NOT")) && value.isArray()) {
      ArrayNode parts = MemoryJson.mapper().createArrayNode();
      value.forEach(p -> parts.add(rewriteMetadata(field, p)));
      out.set(key, parts);
      return;
    }
    String canonical = SCOPE_KEYS.getOrDefault(key, key);
    out.set(canonical, value);
  }
}

package dev.engram.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Scope;
import dev.engram.filter.Field;
import dev.engram.filter.Filter;
import dev.engram.json.MemoryJson;
import java.time.Instant;
import java.util.List;

/**
 * Writes a {@link Filter} back into mem0's JSON filter form, the inverse of {@code
 * Mem0Filters.parse}, and builds the {@code filters} object of a scoped request. Metadata keys are
 * always written as {@code metadata.<key>}, so a metadata key never reads as a built-in field, a
 * scope id or an operator on the server.
 */
final class FilterJson {
  private FilterJson() {}

  /**
   * The {@code "filters"} object of a scoped request: the scope ids at the top level and the
   * filter, if any, nested inside a top-level {@code AND} (so that a condition on {@code user_id}
   * stays a condition and is not read as the scope).
   */
  static ObjectNode scoped(Scope scope, Filter filter) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    scope.userId().ifPresent(v -> o.put("user_id", v));
    scope.agentId().ifPresent(v -> o.put("agent_id", v));
    scope.runId().ifPresent(v -> o.put("run_id", v));
    if (!(filter instanceof Filter.All)) {
      ObjectNode nested = MemoryJson.mapper().createObjectNode();
      nested.putArray("AND").add(write(filter));
      o.putArray("AND").add(nested);
    }
    return o;
  }

  /** The JSON form of a filter; {@link Filter#all()} is the empty object. */
  static ObjectNode write(Filter filter) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    if (filter instanceof Filter.All) {
      return o;
    }
    if (filter instanceof Filter.Comparison c) {
      o.putObject(key(c.field())).set(c.op().wireName(), value(c.value()));
    } else if (filter instanceof Filter.Exists e) {
      o.put(key(e.field()), "*");
    } else if (filter instanceof Filter.And a) {
      parts(o.putArray("AND"), a.parts());
    } else if (filter instanceof Filter.Or or) {
      parts(o.putArray("OR"), or.parts());
    } else if (filter instanceof Filter.Not n) {
      o.putArray("NOT").add(write(n.inner()));
    }
    return o;
  }

  private static void parts(ArrayNode out, List<Filter> parts) {
    parts.forEach(p -> out.add(write(p)));
  }

  private static String key(Field field) {
    return field.isMetadata() ? "metadata." + field.name() : field.name();
  }

  private static JsonNode value(Object v) {
    if (v instanceof Instant i) {
      return MemoryJson.mapper().getNodeFactory().textNode(i.toString());
    }
    if (v instanceof List<?> list) {
      ArrayNode a = MemoryJson.mapper().createArrayNode();
      list.forEach(x -> a.add(value(x)));
      return a;
    }
    return MemoryJson.mapper().valueToTree(v);
  }
}

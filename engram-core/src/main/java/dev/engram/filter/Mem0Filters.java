package dev.engram.filter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Scope;
import dev.engram.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parses mem0's JSON filter form into a {@link Filter}.
 *
 * <ul>
 *   <li>{@code {"key": value}}: equality; {@code {"key": "*"}}: the key is present; {@code {"key":
 *       [a, b]}}: in.
 *   <li>{@code {"key": {"gte": 18, "lt": 65}}}: operators eq, ne, gt, gte, lt, lte, in, nin,
 *       contains, icontains, all of which must hold.
 *   <li>{@code {"AND": [..]}}, {@code {"OR": [..]}}: non-empty lists of conditions; {@code {"NOT":
 *       [..]}}: none of the listed conditions holds.
 *   <li>Sibling keys are ANDed.
 * </ul>
 *
 * Plain string values of {@code user_id}, {@code agent_id} and {@code run_id} at the top level form
 * the scope (as in mem0, where they are required there); see {@link #parseWithScope}.
 */
public final class Mem0Filters {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Mem0Filters() {}

  /** A filter together with the scope taken from its top-level entity ids. */
  public record Parsed(Optional<Scope> scope, Filter filter) {}

  /** Parses JSON text. Blank text means no filter. */
  public static Filter parse(String json) {
    return parse(readTree(json));
  }

  /** Parses a JSON tree; every condition, including entity ids, stays in the filter. */
  public static Filter parse(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return Filter.all();
    }
    return object("filters", node);
  }

  /** Parses a filter given as plain Java values (the shape Jackson gives for a JSON object). */
  public static Filter fromMap(Map<String, ?> map) {
    return parse(MAPPER.<JsonNode>valueToTree(map));
  }

  /**
   * Parses JSON text, lifting top-level {@code user_id}, {@code agent_id} and {@code run_id} string
   * values into a scope; the remaining conditions form the filter.
   */
  public static Parsed parseWithScope(String json) {
    JsonNode node = readTree(json);
    if (node == null || node.isNull() || node.isMissingNode()) {
      return new Parsed(Optional.empty(), Filter.all());
    }
    if (!node.isObject()) {
      throw new ValidationException("filters", "must be a JSON object, got " + node.getNodeType());
    }
    String[] ids = new String[3];
    String[] names = {"user_id", "agent_id", "run_id"};
    com.fasterxml.jackson.databind.node.ObjectNode rest = node.deepCopy();
    for (int i = 0; i < names.length; i++) {
      JsonNode v = node.get(names[i]);
      if (v != null && v.isTextual() && !"*".equals(v.asText())) {
        ids[i] = v.asText();
        rest.remove(names[i]);
      }
    }
    Optional<Scope> scope =
        ids[0] == null && ids[1] == null && ids[2] == null
            ? Optional.empty()
            : Optional.of(Scope.of(ids[0], ids[1], ids[2]));
    return new Parsed(scope, rest.isEmpty() ? Filter.all() : parse(rest));
  }

  private static JsonNode readTree(String json) {
    if (json == null || json.isBlank()) {
      return null;
    }
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new ValidationException("filters", "malformed JSON: " + e.getOriginalMessage());
    }
  }

  private static Filter object(String path, JsonNode node) {
    if (!node.isObject()) {
      throw new ValidationException(
          path, "a condition must be a JSON object, got " + node.getNodeType());
    }
    if (node.isEmpty()) {
      return Filter.all();
    }
    List<Filter> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      parts.add(entry(path, e.getKey(), e.getValue()));
    }
    return parts.size() == 1 ? parts.get(0) : Filter.and(parts);
  }

  private static Filter entry(String path, String key, JsonNode value) {
    switch (key) {
      case "AND", "$and" -> {
        return Filter.and(list(path + ".AND", value));
      }
      case "OR", "$or" -> {
        return Filter.or(list(path + ".OR", value));
      }
      case "NOT", "$not" -> {
        List<Filter> parts = list(path + ".NOT", value);
        return Filter.not(parts.size() == 1 ? parts.get(0) : Filter.or(parts));
      }
      default -> {}
    }
    if (key.isBlank()) {
      throw new ValidationException(path, "field names must not be blank");
    }
    Field field = Field.of(key);
    if (value.isObject()) {
      if (value.isEmpty()) {
        throw new ValidationException(
            field.path(), "an operator object needs at least one operator");
      }
      List<Filter> ops = new ArrayList<>();
      for (Map.Entry<String, JsonNode> e : value.properties()) {
        String opName = e.getKey().startsWith("$") ? e.getKey().substring(1) : e.getKey();
        Op op = Op.parse(field.name(), opName);
        ops.add(new Filter.Comparison(field, op, toJava(field, e.getValue())));
      }
      return ops.size() == 1 ? ops.get(0) : Filter.and(ops);
    }
    if (value.isArray()) {
      return new Filter.Comparison(field, Op.IN, toJava(field, value));
    }
    if (value.isTextual() && "*".equals(value.asText())) {
      return new Filter.Exists(field);
    }
    return new Filter.Comparison(field, Op.EQ, toJava(field, value));
  }

  private static List<Filter> list(String path, JsonNode value) {
    if (!value.isArray() || value.isEmpty()) {
      throw new ValidationException(path, "needs a non-empty list of conditions");
    }
    List<Filter> out = new ArrayList<>();
    for (JsonNode n : value) {
      out.add(object(path, n));
    }
    return out;
  }

  private static Object toJava(Field field, JsonNode v) {
    if (v.isArray()) {
      List<Object> out = new ArrayList<>();
      for (JsonNode n : v) {
        out.add(toJava(field, n));
      }
      return out;
    }
    if (v.isTextual()) {
      return v.asText();
    }
    if (v.isBoolean()) {
      return v.asBoolean();
    }
    if (v.isIntegralNumber()) {
      return v.asLong();
    }
    if (v.isNumber()) {
      return v.asDouble();
    }
    if (v.isNull()) {
      return null;
    }
    throw new ValidationException(field.path(), "needs a string, a number or a boolean, got " + v);
  }
}

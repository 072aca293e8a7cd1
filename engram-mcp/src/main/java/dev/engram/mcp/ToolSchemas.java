package dev.engram.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small builders for the tools' input schemas (JSON Schema 2020-12 as plain maps). Every tool takes
 * the scope arguments {@code user_id}, {@code agent_id} and {@code run_id}; unknown arguments are
 * rejected.
 */
final class ToolSchemas {
  private ToolSchemas() {}

  /**
   * An object schema with these properties (in order) plus the scope ids, with {@code required}
   * names.
   */
  static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
    Map<String, Object> props = new LinkedHashMap<>(properties);
    props.put(
        "user_id",
        string("The user whose memories to use. Leave out to use the server's default user."));
    props.put(
        "agent_id",
        string(
            "The agent whose memories to use. Leave out to use the server's default agent, "
                + "if any."));
    props.put(
        "run_id",
        string(
            "The run (conversation session) whose memories to use. Leave out to use the "
                + "server's default run, if any."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", props);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  static Map<String, Object> props(Object... nameSchemaPairs) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < nameSchemaPairs.length; i += 2) {
      m.put((String) nameSchemaPairs[i], nameSchemaPairs[i + 1]);
    }
    return m;
  }

  static Map<String, Object> string(String description) {
    return Map.of("type", "string", "description", description);
  }

  static Map<String, Object> string(String description, String format) {
    return Map.of("type", "string", "description", description, "format", format);
  }

  static Map<String, Object> integer(String description, int min, int max) {
    return Map.of("type", "integer", "description", description, "minimum", min, "maximum", max);
  }

  static Map<String, Object> number(String description, double min, double max) {
    return Map.of("type", "number", "description", description, "minimum", min, "maximum", max);
  }

  static Map<String, Object> bool(String description) {
    return Map.of("type", "boolean", "description", description);
  }

  static Map<String, Object> anyObject(String description) {
    return Map.of("type", "object", "description", description);
  }

  static Map<String, Object> messages(String description) {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("type", "object");
    message.put(
        "properties",
        props(
            "role",
                Map.of(
                    "type",
                    "string",
                    "enum",
                    List.of("user", "assistant", "system"),
                    "description",
                    "Who said it."),
            "content", string("What was said."),
            "name",
                string("The speaker's name, e.g. Alice (used to write facts in the third person)."),
            "timestamp", string("When it was said, ISO-8601 (2024-05-01T10:00:00Z).")));
    message.put("required", List.of("role", "content"));
    return Map.of("type", "array", "description", description, "minItems", 1, "items", message);
  }
}

package dev.engram.pipeline;

import java.util.List;
import java.util.Map;

/**
 * JSON Schemas of the pipeline's answers (strict-mode friendly: every property required, no
 * extras).
 */
final class Schemas {
  private Schemas() {}

  static final Map<String, Object> FACTS =
      object(Map.of("facts", Map.of("type", "array", "items", Map.of("type", "string"))));

  static final Map<String, Object> DECISIONS =
      object(
          Map.of(
              "decisions",
              Map.of(
                  "type",
                  "array",
                  "items",
                  object(
                      Map.of(
                          "fact", Map.of("type", "integer"),
                          "event",
                              Map.of(
                                  "type",
                                  "string",
                                  "enum",
                                  List.of("ADD", "UPDATE", "DELETE", "NOOP")),
                          "id", Map.of("type", List.of("integer", "null")),
                          "text", Map.of("type", List.of("string", "null")))))));

  static final Map<String, Object> MEMORIES =
      object(
          Map.of(
              "memories",
              Map.of(
                  "type",
                  "array",
                  "items",
                  object(
                      Map.of(
                          "text", Map.of("type", "string"),
                          "links", Map.of("type", "array", "items", Map.of("type", "integer")))))));

  static final Map<String, Object> SCORES =
      object(
          Map.of(
              "scores",
              Map.of(
                  "type",
                  "array",
                  "items",
                  object(
                      Map.of(
                          "id", Map.of("type", "integer"),
                          "score", Map.of("type", "number"))))));

  private static Map<String, Object> object(Map<String, Object> properties) {
    return Map.of(
        "type",
        "object",
        "properties",
        properties,
        "required",
        List.copyOf(properties.keySet()),
        "additionalProperties",
        false);
  }
}

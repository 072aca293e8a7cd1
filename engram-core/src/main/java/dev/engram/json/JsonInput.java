package dev.engram.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.JsonValues;
import dev.engram.ValidationException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Parses caller input given as JSON text or ISO-8601 text (command-line options, request bodies)
 * into API values, with {@link ValidationException}s that name the field and the offending value.
 * Stateless and thread-safe.
 */
public final class JsonInput {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private JsonInput() {}

  /**
   * Parses JSON text into a tree.
   *
   * @param field the name used in error messages
   * @throws ValidationException if the text is blank or not one well-formed JSON value
   */
  public static JsonNode tree(String field, String json) {
    if (json == null || json.isBlank()) {
      throw new ValidationException(field, "must not be empty");
    }
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new ValidationException(field, "malformed JSON: " + e.getOriginalMessage());
    }
  }

  /**
   * Parses a JSON object of metadata into an immutable map of JSON values, keeping key order.
   *
   * @throws ValidationException if the text is not a JSON object
   */
  public static Map<String, Object> metadata(String field, String json) {
    return object(field, tree(field, json));
  }

  /**
   * Converts a JSON object node into an immutable map of plain Java JSON values (String, Boolean,
   * Integer, Long, BigInteger, Double, List, Map).
   *
   * @throws ValidationException if the node is not an object
   */
  public static Map<String, Object> object(String field, JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new ValidationException(
          field,
          "must be a JSON object, got "
              + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(Locale.ROOT)));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> map = MAPPER.convertValue(node, LinkedHashMap.class);
    return JsonValues.immutableObject(map);
  }

  /**
   * Parses a point in time: an ISO-8601 instant or offset date-time ({@code 2024-05-01T10:00:00Z},
   * {@code 2024-05-01T12:00:00+02:00}), a local date-time taken as UTC ({@code
   * 2024-05-01T10:00:00}), or a date taken as midnight UTC ({@code 2024-05-01}).
   *
   * @throws ValidationException if the text is none of these
   */
  public static Instant instant(String field, String text) {
    String t = text == null ? "" : text.trim();
    try {
      return OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeException ignored) {
      // try the next form
    }
    try {
      return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
    } catch (DateTimeException ignored) {
      // try the next form
    }
    try {
      return LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeException e) {
      throw new ValidationException(
          field,
          "'"
              + text
              + "' is not an ISO-8601 date or date-time"
              + " (for example 2024-05-01T10:00:00Z or 2024-05-01)");
    }
  }

  /**
   * Parses an ISO-8601 date ({@code 2025-01-01}).
   *
   * @throws ValidationException if the text is not a date
   */
  public static LocalDate date(String field, String text) {
    try {
      return LocalDate.parse(text == null ? "" : text.trim());
    } catch (DateTimeException e) {
      throw new ValidationException(
          field, "'" + text + "' is not an ISO-8601 date (for example 2025-01-01)");
    }
  }
}

package dev.engram.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ValidationException;
import dev.engram.json.JsonInput;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import java.util.Optional;

/**
 * Typed reads of optional fields of a JSON object, each failing with a {@link ValidationException}
 * that names the field and says what was expected. {@code null} counts as absent.
 */
public final class Fields {
  private Fields() {}

  /** The body as an object, or a 400. */
  public static ObjectNode object(JsonNode body) {
    if (!body.isObject()) {
      throw new ValidationException("body", "must be a JSON object, got " + kind(body));
    }
    return (ObjectNode) body;
  }

  public static Optional<JsonNode> node(JsonNode o, String name) {
    JsonNode v = o.get(name);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(v);
  }

  public static Optional<String> text(JsonNode o, String name) {
    return node(o, name)
        .map(
            v -> {
              if (!v.isTextual()) {
                throw new ValidationException(name, "must be a string, got " + kind(v));
              }
              return v.asText();
            });
  }

  public static String requiredText(JsonNode o, String name) {
    String s = text(o, name).orElseThrow(() -> new ValidationException(name, "is required"));
    if (s.isBlank()) {
      throw new ValidationException(name, "must not be blank");
    }
    return s;
  }

  public static Optional<Boolean> bool(JsonNode o, String name) {
    return node(o, name)
        .map(
            v -> {
              if (!v.isBoolean()) {
                throw new ValidationException(name, "must be true or false, got " + kind(v));
              }
              return v.asBoolean();
            });
  }

  public static Optional<Integer> integer(JsonNode o, String name, int min, int max) {
    return node(o, name)
        .map(
            v -> {
              if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                throw new ValidationException(name, "must be a whole number, got " + kind(v));
              }
              int n = v.asInt();
              if (n < min || n > max) {
                throw new ValidationException(
                    name, "must be between " + min + " and " + max + ", got " + n);
              }
              return n;
            });
  }

  public static Optional<Double> number(JsonNode o, String name, double min, double max) {
    return node(o, name)
        .map(
            v -> {
              if (!v.isNumber()) {
                throw new ValidationException(name, "must be a number, got " + kind(v));
              }
              double d = v.asDouble();
              if (!(d >= min && d <= max)) {
                throw new ValidationException(
                    name, "must be between " + min + " and " + max + ", got " + v);
              }
              return d;
            });
  }

  public static Optional<Map<String, Object>> map(JsonNode o, String name) {
    return node(o, name).map(v -> JsonInput.object(name, v));
  }

  /** An ISO-8601 instant or date, or whole seconds since the epoch. */
  public static Optional<Instant> instant(JsonNode o, String name) {
    return node(o, name)
        .map(
            v -> {
              if (v.isIntegralNumber()) {
                long s = v.asLong();
                if (s < 0 || s > 253_402_300_799L) {
                  throw new ValidationException(name, "seconds since the epoch out of range: " + s);
                }
                return Instant.ofEpochSecond(s);
              }
              if (!v.isTextual()) {
                throw new ValidationException(
                    name, "must be an ISO-8601 time or seconds since the epoch, got " + kind(v));
              }
              return JsonInput.instant(name, v.asText());
            });
  }

  /** An ISO-8601 date ({@code YYYY-MM-DD}); a full timestamp is cut to its date. */
  public static Optional<LocalDate> date(JsonNode o, String name) {
    return text(o, name)
        .map(
            s ->
                JsonInput.date(
                    name, s.length() > 10 && s.charAt(10) == 'T' ? s.substring(0, 10) : s));
  }

  /** A query parameter as a whole number in a range. */
  public static Optional<Integer> queryInt(String name, String value, int min, int max) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    int n;
    try {
      n = Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new ValidationException(name, "must be a whole number, got '" + value + "'");
    }
    if (n < min || n > max) {
      throw new ValidationException(name, "must be between " + min + " and " + max + ", got " + n);
    }
    return Optional.of(n);
  }

  /** A query parameter as a boolean ({@code true}/{@code false}). */
  public static Optional<Boolean> queryBool(String name, String value) {
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    return switch (value.strip()) {
      case "true", "True", "1" -> Optional.of(true);
      case "false", "False", "0" -> Optional.of(false);
      default -> throw new ValidationException(name, "must be true or false, got '" + value + "'");
    };
  }

  static String kind(JsonNode v) {
    return switch (v.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}

package dev.engram.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Role;
import dev.engram.ValidationException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Typed reads of fields of a JSON object for the record codecs, each failing with a {@link
 * ValidationException} named {@code path.key}. A field may be looked up under several keys (the
 * first present wins), for inputs written in snake_case or camelCase. Stateless.
 */
final class JsonFields {
  private JsonFields() {}

  /** The first of {@code keys} that is present and not null, as (key, value). */
  static Optional<Map.Entry<String, JsonNode>> find(JsonNode node, String... keys) {
    for (String k : keys) {
      JsonNode v = node.get(k);
      if (v != null && !v.isNull()) {
        return Optional.of(Map.entry(k, v));
      }
    }
    return Optional.empty();
  }

  static String requiredText(String path, JsonNode node, String... keys) {
    return optionalText(path, node, keys)
        .orElseThrow(() -> new ValidationException(path + "." + keys[0], "is required"));
  }

  static Optional<String> optionalText(String path, JsonNode node, String... keys) {
    return optionalString(path, node, keys, "a string", (field, text) -> text);
  }

  /**
   * The first of {@code keys} that is present and not null, which must be a string ({@code what}
   * says which kind in the error otherwise), read by {@code read} from its dotted field name and
   * its text.
   */
  private static <T> Optional<T> optionalString(
      String path, JsonNode node, String[] keys, String what, BiFunction<String, String, T> read) {
    Optional<Map.Entry<String, JsonNode>> f = find(node, keys);
    if (f.isEmpty()) {
      return Optional.empty();
    }
    String field = path + "." + f.get().getKey();
    JsonNode v = f.get().getValue();
    if (!v.isTextual()) {
      throw new ValidationException(field, "must be " + what + ", got " + v);
    }
    return Optional.of(read.apply(field, v.asText()));
  }

  /** An id: a string, or an integer written as a number. */
  static Optional<String> optionalId(String path, JsonNode node, String... keys) {
    Optional<Map.Entry<String, JsonNode>> f = find(node, keys);
    if (f.isPresent() && f.get().getValue().isIntegralNumber()) {
      return Optional.of(f.get().getValue().asText());
    }
    return optionalText(path, node, keys);
  }

  static Instant requiredInstant(String path, JsonNode node, String... keys) {
    return optionalInstant(path, node, keys)
        .orElseThrow(() -> new ValidationException(path + "." + keys[0], "is required"));
  }

  static Optional<Instant> optionalInstant(String path, JsonNode node, String... keys) {
    return optionalString(path, node, keys, "an ISO-8601 date-time string", JsonInput::instant);
  }

  /** A date: an ISO-8601 date, or the UTC date of a date-time. */
  static Optional<LocalDate> optionalDate(String path, JsonNode node, String... keys) {
    return optionalString(
        path,
        node,
        keys,
        "an ISO-8601 date string",
        (field, value) -> {
          String text = value.trim();
          return text.length() <= 10
              ? JsonInput.date(field, text)
              : LocalDate.ofInstant(JsonInput.instant(field, text), java.time.ZoneOffset.UTC);
        });
  }

  static Optional<Role> optionalRole(String path, JsonNode node, String... keys) {
    Optional<String> text = optionalText(path, node, keys);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Role.parse(text.get()));
    } catch (ValidationException e) {
      throw new ValidationException(
          path + "." + keys[0],
          "unknown role '" + text.get() + "' (expected system, user, assistant or tool)");
    }
  }

  static List<String> stringList(String path, JsonNode node, String... keys) {
    Optional<Map.Entry<String, JsonNode>> f = find(node, keys);
    if (f.isEmpty()) {
      return List.of();
    }
    String field = path + "." + f.get().getKey();
    JsonNode v = f.get().getValue();
    if (!v.isArray()) {
      throw new ValidationException(field, "must be an array of strings, got " + v);
    }
    List<String> out = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isTextual()) {
        throw new ValidationException(field + "[" + i + "]", "must be a string, got " + v.get(i));
      }
      out.add(v.get(i).asText());
    }
    return out;
  }

  /** A JSON object of metadata (empty when absent or null). */
  static Map<String, Object> metadata(String path, JsonNode node, String key) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return Map.of();
    }
    return JsonInput.object(path + "." + key, v);
  }
}

package dev.engram.bench.answer;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Prompt resources and helpers shared by {@link Answerer} and {@link Judge}. */
final class Texts {
  private Texts() {}

  /** A prompt file next to this class, trimmed. */
  static String load(String name) {
    try (InputStream in = Texts.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing prompt resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A question shortened for error messages: {@code 'When did ...'}. */
  static String quote(String question) {
    String q = question.replaceAll("\\s+", " ").strip();
    return "'" + (q.length() <= 120 ? q : q.substring(0, 120) + "...") + "'";
  }

  /** A strict-mode JSON schema of an object whose properties are all strings and all required. */
  static Map<String, Object> stringObject(List<String> properties, Map<String, Object> overrides) {
    Map<String, Object> props = new LinkedHashMap<>();
    for (String p : properties) {
      props.put(p, overrides.getOrDefault(p, Map.of("type", "string")));
    }
    return Map.of(
        "type",
        "object",
        "properties",
        Collections.unmodifiableMap(props),
        "required",
        List.copyOf(properties),
        "additionalProperties",
        false);
  }
}

package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ValidationException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Typed reads from one parsed {@code engram.yaml}. Every error is a {@link ValidationException}
 * whose field is the dotted key ({@code llm.timeout_seconds}) and whose message names the file.
 */
final class YamlFields {
  private static final Set<String> KEY_NAMES = Set.of("api_key", "apikey", "api-key");
  private static final Set<String> PASSWORD_NAMES = Set.of("password", "pass", "passwd");

  private final String source;
  private final Path baseDir;

  YamlFields(String source, Path baseDir) {
    this.source = source;
    this.baseDir = baseDir;
  }

  String source() {
    return source;
  }

  /**
   * Rejects keys outside {@code known}, API keys with a pointer to {@code api_key_env} and
   * passwords with a pointer to {@code password_env}.
   */
  void checkKeys(ObjectNode node, String prefix, List<String> known) {
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      String field = prefix.isEmpty() ? key : prefix + "." + key;
      if (PASSWORD_NAMES.contains(key.toLowerCase(java.util.Locale.ROOT))) {
        throw new ValidationException(
            field,
            "passwords are never read from "
                + source
                + "; put the password in"
                + " an environment variable ("
                + EngramSettings.GraphStore.DEFAULT_PASSWORD_ENV
                + " by default, or the"
                + " one named by "
                + prefix
                + ".password_env), or give "
                + prefix
                + ".password_file (a file holding only the password)");
      }
      if (KEY_NAMES.contains(key.toLowerCase(java.util.Locale.ROOT))) {
        throw new ValidationException(
            field,
            "API keys are never read from "
                + source
                + "; put the key in an"
                + " environment variable and name it with "
                + prefix
                + ".api_key_env, or give "
                + prefix
                + ".api_key_file (a file holding only the key)");
      }
      if (!known.contains(key)) {
        throw new ValidationException(
            field,
            "unknown key in "
                + source
                + " (known keys"
                + (prefix.isEmpty() ? "" : " of " + prefix)
                + ": "
                + String.join(", ", known)
                + ")");
      }
    }
  }

  /** The mapping under {@code key}, checked against {@code known}; empty if absent or null. */
  Optional<ObjectNode> section(ObjectNode root, String key, List<String> known) {
    JsonNode n = root.get(key);
    if (n == null || n.isNull()) {
      return Optional.empty();
    }
    if (!n.isObject()) {
      throw new ValidationException(
          key, "expected a mapping in " + source + ", got '" + n.asText() + "'");
    }
    checkKeys((ObjectNode) n, key, known);
    return Optional.of((ObjectNode) n);
  }

  /** A scalar as text; empty if absent, null or blank. */
  Optional<String> text(ObjectNode node, String prefix, String key) {
    JsonNode n = node.get(key);
    if (n == null || n.isNull()) {
      return Optional.empty();
    }
    if (!n.isValueNode()) {
      throw new ValidationException(
          prefix + "." + key, "expected a single value in " + source + ", got " + n);
    }
    String s = n.asText().trim();
    return s.isEmpty() ? Optional.empty() : Optional.of(s);
  }

  /** A whole number of at least {@code min}, if present. */
  OptionalInt integer(ObjectNode node, String prefix, String key, int min) {
    JsonNode n = node.get(key);
    if (n == null || n.isNull()) {
      return OptionalInt.empty();
    }
    if (!n.isIntegralNumber() || !n.canConvertToInt() || n.intValue() < min) {
      throw new ValidationException(
          prefix + "." + key,
          "expected a whole number >= " + min + " in " + source + ", got '" + n.asText() + "'");
    }
    return OptionalInt.of(n.intValue());
  }

  /** A number in {@code [min, max]}, if present. */
  OptionalDouble decimal(ObjectNode node, String prefix, String key, double min, double max) {
    JsonNode n = node.get(key);
    if (n == null || n.isNull()) {
      return OptionalDouble.empty();
    }
    if (!n.isNumber() || n.doubleValue() < min || n.doubleValue() > max) {
      throw new ValidationException(
          prefix + "." + key,
          "expected a number in ["
              + min
              + ", "
              + max
              + "] in "
              + source
              + ", got '"
              + n.asText()
              + "'");
    }
    return OptionalDouble.of(n.doubleValue());
  }

  /** Seconds as a positive duration (fractions allowed), if present. */
  Optional<Duration> seconds(ObjectNode node, String prefix, String key) {
    OptionalDouble d = decimal(node, prefix, key, 0, 86_400);
    if (d.isEmpty()) {
      return Optional.empty();
    }
    long millis = Math.round(d.getAsDouble() * 1000);
    if (millis < 1) {
      throw new ValidationException(
          prefix + "." + key,
          "expected a positive number of seconds in " + source + ", got '" + d.getAsDouble() + "'");
    }
    return Optional.of(Duration.ofMillis(millis));
  }

  /**
   * A path, {@code ~/} expanded, relative paths resolved against the file's directory; if present.
   */
  Optional<Path> path(ObjectNode node, String prefix, String key) {
    return text(node, prefix, key).map(this::resolve);
  }

  Path resolve(String value) {
    return expandHome(value, baseDir);
  }

  /**
   * {@code value} with a leading {@code ~/} expanded and resolved against {@code base} if relative.
   */
  static Path expandHome(String value, Path base) {
    String v = value.trim();
    Path p =
        v.equals("~") || v.startsWith("~/")
            ? Path.of(System.getProperty("user.home")).resolve(v.equals("~") ? "" : v.substring(2))
            : Path.of(v);
    return base.resolve(p).normalize();
  }

  /**
   * Parses a choice among {@code names} (case-insensitive); {@code field} and {@code where} go in
   * the error.
   */
  static <E extends Enum<E>> E choice(Class<E> type, String value, String field, String where) {
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      String name = e.name().toLowerCase(java.util.Locale.ROOT);
      if (name.equals(value.trim().toLowerCase(java.util.Locale.ROOT))) {
        return e;
      }
      names.add(name);
    }
    throw new ValidationException(
        field,
        "unknown value '"
            + value
            + "' in "
            + where
            + " (expected one of "
            + String.join(", ", names)
            + ")");
  }
}

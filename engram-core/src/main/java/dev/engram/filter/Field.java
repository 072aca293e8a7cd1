package dev.engram.filter;

import dev.engram.ValidationException;
import java.util.Objects;

/**
 * A field a filter can test: a built-in field of every memory, or a metadata key. A name is
 * resolved to a built-in field first; {@code metadata.<key>} always names a metadata key.
 *
 * @param name the metadata key, or the built-in field's wire name
 * @param builtIn the built-in field, or null for a metadata key
 */
public record Field(String name, BuiltInField builtIn) {
  public Field {
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new ValidationException("filters", "field names must not be blank");
    }
  }

  /** Resolves a filter key. */
  public static Field of(String key) {
    Objects.requireNonNull(key, "key");
    if (key.startsWith("metadata.") && key.length() > "metadata.".length()) {
      return new Field(key.substring("metadata.".length()), null);
    }
    BuiltInField b = BuiltInField.byName(key);
    return b != null ? new Field(b.wireName(), b) : new Field(key, null);
  }

  public boolean isMetadata() {
    return builtIn == null;
  }

  /** The filter path used in error messages, for example {@code filters.age}. */
  public String path() {
    return "filters." + name;
  }
}

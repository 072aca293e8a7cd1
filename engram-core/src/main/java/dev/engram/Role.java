package dev.engram;

import java.util.Locale;

/** The role of a message's author, as in chat APIs. */
public enum Role {
  SYSTEM,
  USER,
  ASSISTANT,
  TOOL;

  /** Lower-case wire name ({@code user}, {@code assistant}...). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses a wire name, case-insensitively. */
  public static Role parse(String value) {
    if (value != null) {
      for (Role r : values()) {
        if (r.name().equalsIgnoreCase(value.trim())) {
          return r;
        }
      }
    }
    throw new ValidationException(
        "role", "unknown role '" + value + "' (expected system, user, assistant or tool)");
  }
}

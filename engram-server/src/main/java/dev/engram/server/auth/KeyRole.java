package dev.engram.server.auth;

import dev.engram.ValidationException;
import java.util.Locale;

/**
 * What an API key may do: a member reads and writes memories; an admin may also delete scopes,
 * reset and export.
 */
public enum KeyRole {
  MEMBER,
  ADMIN;

  /** The lower-case name ({@code member}, {@code admin}). */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** True if this role may do what {@code required} allows. */
  public boolean allows(KeyRole required) {
    return this == ADMIN || required == MEMBER;
  }

  /** Parses {@code member} or {@code admin}. */
  public static KeyRole parse(String text) {
    for (KeyRole r : values()) {
      if (r.wireName().equals(text)) {
        return r;
      }
    }
    throw new ValidationException("role", "must be member or admin, got '" + text + "'");
  }
}

package dev.engram.server.http;

import dev.engram.server.auth.KeyRole;
import java.util.Optional;

/** Who may call a route: anyone, any key of a tenant, or only an admin key. */
public enum Access {
  PUBLIC,
  MEMBER,
  ADMIN;

  /** The role a key needs, or empty for a public route. */
  public Optional<KeyRole> requiredRole() {
    return switch (this) {
      case PUBLIC -> Optional.empty();
      case MEMBER -> Optional.of(KeyRole.MEMBER);
      case ADMIN -> Optional.of(KeyRole.ADMIN);
    };
  }
}

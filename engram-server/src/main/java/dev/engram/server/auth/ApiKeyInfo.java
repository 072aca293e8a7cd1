package dev.engram.server.auth;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What is stored about an API key: never the key itself, only its hash (kept by the store) and a
 * short prefix that lets an operator recognise it.
 *
 * @param id the key's public id (also embedded in the key)
 * @param tenant the tenant the key reads and writes
 * @param role what the key may do
 * @param label a free-text label given at creation (may be empty)
 * @param prefix the first characters of the key, for display
 * @param createdAt when it was created
 * @param revokedAt when it was revoked, if it was
 */
public record ApiKeyInfo(
    String id,
    String tenant,
    KeyRole role,
    String label,
    String prefix,
    Instant createdAt,
    Optional<Instant> revokedAt) {
  public ApiKeyInfo {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(revokedAt, "revokedAt");
  }

  /** True unless the key was revoked. */
  public boolean active() {
    return revokedAt.isEmpty();
  }
}

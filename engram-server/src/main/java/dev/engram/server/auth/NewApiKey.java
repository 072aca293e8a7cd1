package dev.engram.server.auth;

import dev.engram.Tenants;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A key just created: its stored description and the secret key text, which exists only here (the
 * store keeps a hash). Show it once; it cannot be recovered.
 */
public record NewApiKey(ApiKeyInfo info, String secret) {
  public NewApiKey {
    Objects.requireNonNull(info, "info");
    Objects.requireNonNull(secret, "secret");
  }

  /**
   * A fresh key for a tenant (its id, secret and description); the caller stores the description
   * and {@link KeySecrets#hash} of the secret, never the secret.
   *
   * @param label free text; blank or absent becomes empty
   */
  public static NewApiKey mint(String tenant, KeyRole role, String label, Instant at) {
    String checkedTenant = Tenants.check(tenant);
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(at, "at");
    String cleanLabel = label == null ? "" : label.strip();
    String id = KeySecrets.newId();
    String key = KeySecrets.newKey(id);
    return new NewApiKey(
        new ApiKeyInfo(
            id, checkedTenant, role, cleanLabel, KeySecrets.prefix(key), at, Optional.empty()),
        key);
  }

  /** Never prints the secret. */
  @Override
  public String toString() {
    return "NewApiKey["
        + info.id()
        + ", tenant="
        + info.tenant()
        + ", role="
        + info.role().wireName()
        + "]";
  }
}

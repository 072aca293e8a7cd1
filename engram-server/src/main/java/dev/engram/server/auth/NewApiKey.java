package dev.engram.server.auth;

import java.util.Objects;

/**
 * A key just created: its stored description and the secret key text, which exists only here (the store keeps a
 * hash). Show it once; it cannot be recovered.
 */
public record NewApiKey(ApiKeyInfo info, String secret) {
  public NewApiKey {
    Objects.requireNonNull(info, "info");
    Objects.requireNonNull(secret, "secret");
  }

  /** Never prints the secret. */
  @Override
  public String toString() {
    return "NewApiKey[" + info.id() + ", tenant=" + info.tenant() + ", role=" + info.role().wireName() + "]";
  }
}

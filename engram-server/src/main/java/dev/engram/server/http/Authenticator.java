package dev.engram.server.http;

import dev.engram.Tenants;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.auth.Principal;
import java.util.Optional;

/**
 * Finds the API key of a request in {@code Authorization: Token <key>} (mem0's hosted clients),
 * {@code Authorization: Bearer <key>} (MCP, self-hosted) or {@code X-API-Key: <key>} (mem0's
 * self-hosted server), and turns it into a principal. Keys never appear in messages or logs.
 */
public final class Authenticator {
  /** The principal of every request when the server runs with {@code --insecure-no-auth}. */
  public static final Principal INSECURE =
      new Principal("insecure-no-auth", Tenants.DEFAULT, KeyRole.ADMIN);

  private final ApiKeyStore keys;
  private final boolean insecureNoAuth;

  public Authenticator(ApiKeyStore keys, boolean insecureNoAuth) {
    this.keys = keys;
    this.insecureNoAuth = insecureNoAuth;
  }

  /** The caller for these header values; a 401 {@link ApiException} if they carry no valid key. */
  public Principal authenticate(String authorization, String apiKeyHeader) {
    if (insecureNoAuth) {
      return INSECURE;
    }
    Optional<String> key = presentedKey(authorization, apiKeyHeader);
    if (key.isEmpty()) {
      throw new ApiException(
          401,
          "authentication required: send Authorization: Token <key> (or Bearer <key>,"
              + " or X-API-Key: <key>)",
          "Authorization");
    }
    return keys.authenticate(key.get())
        .orElseThrow(() -> new ApiException(401, "invalid or revoked API key", "Authorization"));
  }

  private static Optional<String> presentedKey(String authorization, String apiKeyHeader) {
    if (authorization != null && !authorization.isBlank()) {
      String a = authorization.strip();
      int space = a.indexOf(' ');
      if (space > 0) {
        String scheme = a.substring(0, space);
        if (scheme.equalsIgnoreCase("Token") || scheme.equalsIgnoreCase("Bearer")) {
          return Optional.of(a.substring(space + 1).strip());
        }
      }
      return Optional.of("");
    }
    if (apiKeyHeader != null && !apiKeyHeader.isBlank()) {
      return Optional.of(apiKeyHeader.strip());
    }
    return Optional.empty();
  }
}

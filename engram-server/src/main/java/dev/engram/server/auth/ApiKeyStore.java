package dev.engram.server.auth;

import java.util.List;
import java.util.Optional;

/**
 * Where API keys live. Keys are random (192 bits), shown once at creation, stored only as SHA-256
 * hashes and compared in constant time. Thread-safe; several processes may share one store (the CLI
 * creates and revokes keys while a server runs), and a revocation takes effect on the next request.
 */
public interface ApiKeyStore extends AutoCloseable {

  /** Creates a key for a tenant; the returned secret is never stored. */
  NewApiKey create(String tenant, KeyRole role, String label);

  /** Every key, active and revoked, oldest first. */
  List<ApiKeyInfo> list();

  /** Revokes a key; false if there is no such key or it was revoked already. */
  boolean revoke(String id);

  /** The principal of an active key, or empty for an unknown, malformed or revoked key. */
  Optional<Principal> authenticate(String presentedKey);

  @Override
  void close();
}

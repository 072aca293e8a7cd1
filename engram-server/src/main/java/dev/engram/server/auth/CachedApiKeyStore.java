package dev.engram.server.auth;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * An {@link ApiKeyStore} that remembers the keys it authenticated for a short time, so that a
 * server checks a key against its store once per key and {@code ttl} instead of on every request (a
 * SQL read under the store's lock, the largest part of the server's own cost per request before).
 *
 * <p>What a revocation costs: one through this store (and {@link #close}) takes effect on the next
 * request; one made elsewhere (the CLI's {@code engram keys revoke}, another server sharing a
 * PostgreSQL store) within {@code ttl}, as the cache's entries are trusted no longer. Only
 * successes are remembered: an unknown or revoked key is looked up every time, so a key created
 * elsewhere works at once. Entries are found by the SHA-256 of the presented key, never by the key
 * itself, so neither the cache nor its lookups' timing reveal a key. An entry's age is measured on
 * a monotonic ticker (nanoseconds, {@code System::nanoTime} in the server), not on the wall clock:
 * a key check reads no time that a request's dates could see, and a clock set back trusts no key
 * longer. Thread-safe.
 */
public final class CachedApiKeyStore implements ApiKeyStore {
  /**
   * Most keys remembered at once; beyond it the cache starts afresh (a server rarely sees that many
   * keys).
   */
  static final int MAX_ENTRIES = 10_000;

  private final ApiKeyStore store;
  private final LongSupplier ticker;
  private final Duration ttl;
  private final Map<ByteBuffer, Entry> byHash = new ConcurrentHashMap<>();

  /** A principal and the ticker's reading when it was checked against the store. */
  private record Entry(Principal principal, long checkedAt) {}

  /**
   * @param store the keys
   * @param ticker a monotonic time in nanoseconds that measures the entries' age
   * @param ttl how long an authenticated key is trusted without asking the store; zero asks every
   *     time
   */
  public CachedApiKeyStore(ApiKeyStore store, LongSupplier ticker, Duration ttl) {
    this.store = Objects.requireNonNull(store, "store");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.ttl = Objects.requireNonNull(ttl, "ttl");
    if (ttl.isNegative()) {
      throw new IllegalArgumentException("ttl must not be negative, got " + ttl);
    }
  }

  @Override
  public NewApiKey create(String tenant, KeyRole role, String label) {
    return store.create(tenant, role, label);
  }

  @Override
  public List<ApiKeyInfo> list() {
    return store.list();
  }

  /** Revokes a key in the store and forgets it here at once. */
  @Override
  public boolean revoke(String id) {
    Objects.requireNonNull(id, "id");
    boolean revoked = store.revoke(id);
    byHash.values().removeIf(e -> e.principal().keyId().equals(id));
    return revoked;
  }

  @Override
  public Optional<Principal> authenticate(String presentedKey) {
    if (ttl.isZero() || KeySecrets.idOf(presentedKey).isEmpty()) {
      return store.authenticate(presentedKey);
    }
    ByteBuffer hash = ByteBuffer.wrap(KeySecrets.hash(presentedKey));
    long now = ticker.getAsLong();
    Entry cached = byHash.get(hash);
    if (cached != null && now - cached.checkedAt() < ttl.toNanos()) {
      return Optional.of(cached.principal());
    }
    Optional<Principal> found = store.authenticate(presentedKey);
    if (found.isPresent()) {
      if (byHash.size() >= MAX_ENTRIES) {
        byHash.clear();
      }
      byHash.put(hash, new Entry(found.get(), now));
    } else {
      byHash.remove(hash);
    }
    return found;
  }

  /** Forgets every remembered key; closes the store. */
  @Override
  public void close() {
    byHash.clear();
    store.close();
  }
}

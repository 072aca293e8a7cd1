package dev.engram.server.postgres;

import dev.engram.server.store.JdbcApiKeyStore;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * API keys in PostgreSQL ({@code server_api_keys}): the key's SHA-256 hash, never the key. Every
 * check reads the table (no cache), so a key created or revoked through any server or {@code engram
 * keys} holds on every server from its next request. Does not own the pool.
 */
public final class PostgresApiKeyStore extends JdbcApiKeyStore {
  /**
   * @param pool connections to the migrated schema ({@link dev.engram.postgres.PostgresPools})
   * @param clock the clock for creation and revocation times
   */
  public PostgresApiKeyStore(DataSource pool, Clock clock) {
    super(new Transactions(Objects.requireNonNull(pool, "pool")), "server_api_keys", clock);
  }

  /** Nothing to close: the pool belongs to the caller. */
  @Override
  public void close() {}
}

package dev.engram.server.store;

import java.time.Clock;

/**
 * API keys in {@code server.db} (table {@code api_keys}): the key's SHA-256 hash, never the key.
 */
public final class SqliteApiKeyStore extends JdbcApiKeyStore {
  private final ServerDatabase db;
  private final boolean ownsDatabase;

  /**
   * @param db the server database
   * @param clock the clock for creation and revocation times
   * @param ownsDatabase true to close the database when this store is closed
   */
  public SqliteApiKeyStore(ServerDatabase db, Clock clock, boolean ownsDatabase) {
    super(db, "api_keys", clock);
    this.db = db;
    this.ownsDatabase = ownsDatabase;
  }

  @Override
  public void close() {
    if (ownsDatabase) {
      db.close();
    }
  }
}

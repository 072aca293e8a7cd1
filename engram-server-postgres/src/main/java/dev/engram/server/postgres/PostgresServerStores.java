package dev.engram.server.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.engram.postgres.PostgresPools;
import dev.engram.postgres.PostgresSettings;
import java.time.Clock;
import java.util.Objects;

/**
 * The API keys and add events of {@code engram serve} in the PostgreSQL schema of the memory store
 * ({@code store.provider: postgres}), on a small pool of their own: any number of servers and
 * {@code engram keys} commands on the schema share them. Opening migrates the schema like {@link
 * dev.engram.postgres.PostgresStorage} (one migration history, {@code V10__server_keys_events}).
 * Closing closes the pool.
 */
public final class PostgresServerStores implements AutoCloseable {
  /**
   * The most connections the server's stores open (authentication, event claims and lease
   * renewals).
   */
  public static final int POOL_SIZE = 4;

  private final HikariDataSource pool;
  private final PostgresApiKeyStore keys;
  private final PostgresAddEventStore events;

  private PostgresServerStores(HikariDataSource pool, Clock clock) {
    this.pool = pool;
    this.keys = new PostgresApiKeyStore(pool, clock);
    this.events = new PostgresAddEventStore(pool);
  }

  /**
   * Connects to the schema of {@code settings} (migrating it); key times come from {@code clock},
   * the server's.
   *
   * @throws dev.engram.StorageException if PostgreSQL cannot be reached or refuses; the message
   *     never shows the password
   */
  public static PostgresServerStores open(PostgresSettings settings, Clock clock) {
    Objects.requireNonNull(clock, "clock");
    return new PostgresServerStores(
        PostgresPools.open(
            settings, "engram-server-postgres", Math.min(POOL_SIZE, settings.poolSize())),
        clock);
  }

  /** The API keys. */
  public PostgresApiKeyStore keys() {
    return keys;
  }

  /** The add events. */
  public PostgresAddEventStore events() {
    return events;
  }

  /** Closes the pool (the stores stop working). */
  @Override
  public void close() {
    pool.close();
  }
}

package dev.engram.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.engram.StorageException;
import java.sql.Connection;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The one way Engram connects to its PostgreSQL schema: a HikariCP pool whose connections use the
 * schema, opened only after Flyway has migrated the schema (created if missing) to the latest
 * version. Used by {@link PostgresStorage} and by the server's key and event stores ({@code
 * engram-server-postgres}), which share the schema and its one migration history.
 */
public final class PostgresPools {
  private PostgresPools() {}

  /**
   * Connects, migrates the schema and returns the pool; the caller closes it.
   *
   * @param settings where the database is
   * @param poolName the pool's name (in thread names and logs)
   * @param maxSize the most connections the pool opens (at least 1; with one, the connection is
   *     never replaced, as its session holds the scope locks, and Flyway shares it)
   * @throws StorageException if the server cannot be reached, refuses the credentials or the
   *     migration fails; the message names the URL, user and schema, never the password
   */
  public static HikariDataSource open(PostgresSettings settings, String poolName, int maxSize) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(settings.url());
    config.setUsername(settings.user());
    settings.password().ifPresent(config::setPassword);
    config.setMaximumPoolSize(Math.max(1, maxSize));
    config.setMinimumIdle(1);
    config.setPoolName(poolName);
    config.setConnectionTimeout(30_000);
    if (maxSize <= 1) {
      config.setMaxLifetime(
          0); // never replace the one connection (its session holds the scope locks)
    }
    config.setSchema(
        settings.schema()); // search_path; the migration creates the schema if it is missing
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new StorageException(
          "cannot open the PostgreSQL store at " + where(settings) + ": " + e.getMessage(), e);
    }
    try {
      migrate(pool, settings.schema());
      return pool;
    } catch (RuntimeException e) {
      pool.close();
      throw failure(settings, e);
    }
  }

  /** A failure to open the store at {@code settings}, naming where (never the password). */
  static StorageException failure(PostgresSettings settings, RuntimeException e) {
    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return new StorageException(
        "cannot open the PostgreSQL store at " + where(settings) + ": " + why, e);
  }

  private static String where(PostgresSettings settings) {
    return settings.url() + " (user '" + settings.user() + "', schema '" + settings.schema() + "')";
  }

  /**
   * Migrates with Flyway on one connection borrowed from the pool and shared by all of Flyway's
   * work, so a pool of one connection (PGlite) suffices; Flyway's advisory lock still keeps
   * processes from migrating at once.
   */
  private static void migrate(HikariDataSource pool, String schema) {
    try (Connection c = pool.getConnection()) {
      Flyway.configure()
          .dataSource(new SharedConnectionDataSource(c))
          .schemas(schema)
          .defaultSchema(schema)
          .createSchemas(true)
          .locations("classpath:dev/engram/postgres/migration")
          .load()
          .migrate();
    } catch (FlywayException e) {
      throw new StorageException("the schema migration failed: " + e.getMessage(), e);
    } catch (SQLException e) {
      throw new StorageException(
          "could not connect for the schema migration: " + e.getMessage(), e);
    }
  }
}

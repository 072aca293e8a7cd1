package dev.engram.postgres;

import dev.engram.StorageException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Runs work in transactions on pooled connections and turns SQL failures into {@link
 * StorageException}s that name the operation. Engram's own exceptions (not found, dimension
 * mismatch) pass through after the rollback.
 *
 * <p>With {@code pinSchema} every borrowed connection first sets {@code search_path} to the schema:
 * a server whose connections share one session (PGlite, served with a pool of one per store) may
 * have had it changed by another store's connection since.
 */
final class Database {
  private final DataSource pool;
  private final Optional<String> pinSchema;

  Database(DataSource pool, Optional<String> pinSchema) {
    this.pool = pool;
    this.pinSchema = pinSchema;
  }

  /**
   * A pooled connection, its {@code search_path} set first if the schema is pinned; the caller
   * closes it.
   */
  Connection connection() throws SQLException {
    Connection c = pool.getConnection();
    if (pinSchema.isPresent()) {
      try (Statement s = c.createStatement()) {
        s.execute("SET search_path TO \"" + pinSchema.get() + "\"");
      } catch (SQLException e) {
        c.close();
        throw e;
      }
    }
    return c;
  }

  /**
   * Runs {@code work} in a read-write transaction, committed if it returns, rolled back if it
   * throws.
   */
  <T> T write(String what, SqlWork<T> work) {
    return inTransaction(what, work, false, false);
  }

  /**
   * Runs {@code work} in a read-only transaction; {@code snapshot} makes every statement see one
   * snapshot.
   */
  <T> T read(String what, boolean snapshot, SqlWork<T> work) {
    return inTransaction(what, work, true, snapshot);
  }

  /** Runs {@code work} as single statements in autocommit mode (each sees the latest commits). */
  <T> T read(String what, SqlWork<T> work) {
    try (Connection c = connection()) {
      return work.run(c);
    } catch (SQLException e) {
      throw new StorageException("PostgreSQL could not " + what + ": " + e.getMessage(), e);
    }
  }

  private <T> T inTransaction(String what, SqlWork<T> work, boolean readOnly, boolean snapshot) {
    try (Connection c = connection()) {
      c.setAutoCommit(false);
      if (snapshot) {
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      }
      c.setReadOnly(readOnly);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException e) {
        rollback(c, e);
        throw e;
      } finally {
        c.setReadOnly(false);
        if (snapshot) {
          c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StorageException("PostgreSQL could not " + what + ": " + e.getMessage(), e);
    }
  }

  private static void rollback(Connection c, Exception cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  DataSource pool() {
    return pool;
  }
}

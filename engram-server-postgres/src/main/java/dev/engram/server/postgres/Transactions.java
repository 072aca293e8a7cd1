package dev.engram.server.postgres;

import dev.engram.StorageException;
import dev.engram.server.store.SqlTransactions;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Runs work in one transaction on a pooled connection; SQL failures become {@link
 * StorageException}s.
 */
final class Transactions implements SqlTransactions {

  private final DataSource pool;

  Transactions(DataSource pool) {
    this.pool = pool;
  }

  /** A read: in a transaction too, so that it sees one snapshot. */
  @Override
  public <T> T read(String what, Work<T> work) {
    return run(what, work);
  }

  @Override
  public <T> T write(String what, Work<T> work) {
    return run(what, work);
  }

  /** Runs {@code work} in a transaction, committed if it returns, rolled back if it throws. */
  <T> T run(String what, Work<T> work) {
    try (Connection c = pool.getConnection()) {
      c.setAutoCommit(false);
      try {
        T out = work.run(c);
        c.commit();
        return out;
      } catch (SQLException | RuntimeException e) {
        try {
          c.rollback();
        } catch (SQLException rollback) {
          e.addSuppressed(rollback);
        }
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StorageException("PostgreSQL could not " + what + ": " + e.getMessage(), e);
    }
  }
}

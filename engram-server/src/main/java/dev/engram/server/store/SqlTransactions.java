package dev.engram.server.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the server's stores run their SQL: {@code server.db} ({@link ServerDatabase}) or a
 * PostgreSQL pool. Failures become {@link dev.engram.StorageException}s naming what was being done.
 */
public interface SqlTransactions {
  /** Work done on a connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** Runs a read. */
  <T> T read(String what, Work<T> work);

  /** Runs a write in one transaction, committed if it returns, rolled back if it throws. */
  <T> T write(String what, Work<T> work);
}

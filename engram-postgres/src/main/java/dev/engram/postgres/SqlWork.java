package dev.engram.postgres;

import java.sql.Connection;
import java.sql.SQLException;

/** Work on one connection inside a transaction that {@link Database} opens and ends. */
@FunctionalInterface
interface SqlWork<T> {
  T run(Connection connection) throws SQLException;
}

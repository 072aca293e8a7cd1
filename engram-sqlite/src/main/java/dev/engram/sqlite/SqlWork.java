package dev.engram.sqlite;

import java.sql.SQLException;

/** Work done on one connection; may throw {@link SQLException}, which the caller wraps. */
@FunctionalInterface
interface SqlWork<T> {
  T run(Handle db) throws SQLException;
}

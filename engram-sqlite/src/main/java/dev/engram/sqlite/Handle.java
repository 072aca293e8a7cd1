package dev.engram.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One SQLite connection with a cache of its prepared statements. Used by one thread at a time: the
 * writer under the store's write lock, a reader while it is borrowed from the pool.
 */
final class Handle implements AutoCloseable {
  /** Most statements kept per connection: the fixed ones plus the most recent filter shapes. */
  private static final int MAX_CACHED = 64;

  private final Connection connection;
  private final Map<String, PreparedStatement> cache =
      new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
          if (size() <= MAX_CACHED) {
            return false;
          }
          try {
            eldest.getValue().close();
          } catch (SQLException ignored) {
            // A statement that cannot be finalised is dropped all the same.
          }
          return true;
        }
      };

  Handle(Connection connection) {
    this.connection = connection;
  }

  Connection connection() {
    return connection;
  }

  /**
   * A cached statement for this SQL text (least recently used ones are closed beyond {@value
   * #MAX_CACHED}). Callers bind every parameter, close the result set they open (which resets the
   * statement) before preparing another, and never close the statement itself.
   */
  PreparedStatement cached(String sql) throws SQLException {
    PreparedStatement ps = cache.get(sql);
    if (ps == null) {
      ps = connection.prepareStatement(sql);
      cache.put(sql, ps);
    }
    return ps;
  }

  /** Runs SQL without parameters or results (BEGIN, COMMIT, DDL, PRAGMA). */
  void exec(String sql) throws SQLException {
    try (Statement st = connection.createStatement()) {
      st.execute(sql);
    }
  }

  @Override
  public void close() throws SQLException {
    SQLException failure = null;
    for (PreparedStatement ps : cache.values()) {
      try {
        ps.close();
      } catch (SQLException e) {
        failure = e;
      }
    }
    cache.clear();
    connection.close();
    if (failure != null) {
      throw failure;
    }
  }
}

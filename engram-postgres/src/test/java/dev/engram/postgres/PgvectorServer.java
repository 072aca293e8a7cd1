package dev.engram.postgres;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The PostgreSQL servers the pgvector path's tests run on. The {@code Pgvector...Test} classes run
 * on {@link #PGLITE}; their {@code NativePgvector...Test} subclasses run the same tests on {@link
 * #NATIVE}.
 */
enum PgvectorServer {
  /**
   * PGlite: PostgreSQL 18 and pgvector 0.8 in WebAssembly, one connection at a time ({@link
   * PgliteServer}).
   */
  PGLITE {
    @Override
    PostgresSettings settingsFor(Path dir) {
      return PgliteServer.get().settingsFor(dir);
    }

    @Override
    Connection connect() throws SQLException {
      return DriverManager.getConnection(PgliteServer.get().url(), "postgres", "");
    }

    /**
     * Every connection shares PGlite's one session: forces its next flush, waits a second, ends a
     * transaction.
     */
    @Override
    void flushStatistics(Connection c, Runnable closeStorage) throws SQLException {
      try (Statement s = c.createStatement()) {
        s.execute("SELECT pg_stat_force_next_flush()");
        try {
          Thread.sleep(1_100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(e);
        }
        s.execute("SELECT 1");
      }
    }
  },
  /**
   * Debian's PostgreSQL 15 with pgvector 0.8.0 built from Debian's source package ({@link
   * PostgresCluster}, its extension installed by {@code scripts/install-pgvector.sh}), with a pool
   * of several connections.
   */
  NATIVE {
    @Override
    PostgresSettings settingsFor(Path dir) {
      return PostgresCluster.get().pgvectorSettingsFor(dir);
    }

    @Override
    Connection connect() throws SQLException {
      return PostgresCluster.get().connect();
    }

    /**
     * Each pooled connection is its own backend, which may hold its counts for up to ten seconds
     * after it went idle but flushes them before its process ends: closes the storage and waits
     * until every other backend of the database that was there before has ended.
     */
    @Override
    void flushStatistics(Connection c, Runnable closeStorage) throws SQLException {
      List<Long> pids = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery(
                  "SELECT pid FROM pg_stat_activity"
                      + " WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()")) {
        while (rs.next()) {
          pids.add(rs.getLong(1));
        }
      }
      closeStorage.run();
      for (long pid : pids) {
        ProcessHandle.of(pid)
            .ifPresent(
                backend -> {
                  try {
                    backend.onExit().get(60, TimeUnit.SECONDS);
                  } catch (TimeoutException e) {
                    throw new IllegalStateException(
                        "backend " + pid + " has not ended 60 s after its storage closed", e);
                  } catch (ExecutionException e) {
                    throw new IllegalStateException(e);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                  }
                });
      }
    }
  };

  /** Settings for {@code dir}'s own schema on the pgvector path ({@link VectorMode#PGVECTOR}). */
  abstract PostgresSettings settingsFor(Path dir);

  /** A plain JDBC connection to the database of {@link #settingsFor}, as the superuser. */
  abstract Connection connect() throws SQLException;

  /**
   * Makes the statistics ({@code pg_stat_user_indexes}) of every statement run so far visible to
   * the next transaction of {@code c}, which is a {@link #connect} connection; {@code closeStorage}
   * closes the storage under test (its connections) and opens it again.
   */
  abstract void flushStatistics(Connection c, Runnable closeStorage) throws SQLException;
}

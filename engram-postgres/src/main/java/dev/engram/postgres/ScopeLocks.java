package dev.engram.postgres;

import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.ScopeLease;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Cross-process scope locks: {@code pg_advisory_xact_lock} on a 64-bit hash of (schema, tenant,
 * scope key), taken in a transaction that stays open while the lease is held. A thread's leases
 * share one connection and one transaction (an add of several scopes holds one connection, not one
 * per scope), and all are released when the last one closes (the transaction ends). A process that
 * dies releases its locks with its connections. Deadlocks between processes that lock two scopes in
 * opposite orders are detected by PostgreSQL, which fails one of the adds.
 *
 * <p>With a pool of one connection ({@code sessionLocks}), holding a connection for the lease would
 * starve the add it guards, so each lease is a session-level {@code pg_try_advisory_lock} taken
 * (retried every 10 ms while another process holds it) and later released with {@code
 * pg_advisory_unlock}, each on a briefly borrowed connection. The engine's in-process scope locks
 * keep two threads of this process from sharing one key, so the session's re-entrancy does not
 * matter; a process that dies still releases its locks with its connection.
 */
final class ScopeLocks {
  private final DataSource pool;
  private final String schema;
  private final boolean sessionLocks;

  // Per store, not static: each store has its own pool, and a thread's session belongs to one of
  // them.
  @SuppressWarnings("ThreadLocalUsage")
  private final ThreadLocal<Session> sessions = new ThreadLocal<>();

  private static final class Session {
    final Connection connection;
    int depth;

    Session(Connection connection) {
      this.connection = connection;
    }
  }

  ScopeLocks(DataSource pool, String schema, boolean sessionLocks) {
    this.pool = pool;
    this.schema = schema;
    this.sessionLocks = sessionLocks;
  }

  ScopeLease lock(String tenant, Scope scope) {
    return sessionLocks ? sessionLock(tenant, scope) : transactionLock(tenant, scope);
  }

  private ScopeLease sessionLock(String tenant, Scope scope) {
    long key = key(tenant, scope);
    String what = "scope " + scope + " of tenant '" + tenant + "'";
    try {
      while (!onBorrowed("SELECT pg_try_advisory_lock(?)", key)) {
        Thread.sleep(10);
      }
    } catch (SQLException e) {
      throw new StorageException("PostgreSQL could not lock " + what + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for the lock of " + what, e);
    }
    return () -> {
      try {
        onBorrowed("SELECT pg_advisory_unlock(?)", key);
      } catch (SQLException e) {
        throw new StorageException(
            "PostgreSQL could not unlock " + what + ": " + e.getMessage(), e);
      }
    };
  }

  private boolean onBorrowed(String sql, long key) throws SQLException {
    try (Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, key);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private ScopeLease transactionLock(String tenant, Scope scope) {
    Session session = sessions.get();
    try {
      if (session == null) {
        Connection c = pool.getConnection();
        try {
          c.setAutoCommit(false);
        } catch (SQLException e) {
          c.close();
          throw e;
        }
        session = new Session(c);
        sessions.set(session);
      }
      try (PreparedStatement ps =
          session.connection.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
        ps.setLong(1, key(tenant, scope));
        ps.execute();
      }
      session.depth++;
    } catch (SQLException e) {
      if (session != null && session.depth == 0) {
        end(session);
      }
      throw new StorageException(
          "PostgreSQL could not lock scope "
              + scope
              + " of tenant '"
              + tenant
              + "': "
              + e.getMessage(),
          e);
    }
    Session held = session;
    return () -> {
      if (--held.depth == 0) {
        end(held);
      }
    };
  }

  private void end(Session session) {
    sessions.remove();
    try (Connection c = session.connection) {
      c.rollback(); // nothing was written on it; ending the transaction releases every lock it took
      c.setAutoCommit(true);
    } catch (SQLException e) {
      throw new StorageException("PostgreSQL could not release scope locks: " + e.getMessage(), e);
    }
  }

  /**
   * The first 8 bytes of SHA-256 of (schema, tenant, scope key): stable across processes and
   * versions.
   */
  private long key(String tenant, Scope scope) {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256")
              .digest(
                  (schema + '\u0000' + tenant + '\u0000' + scope.key())
                      .getBytes(StandardCharsets.UTF_8));
      long k = 0;
      for (int i = 0; i < 8; i++) {
        k = (k << 8) | (d[i] & 0xff);
      }
      return k;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

package dev.engram.server.store;

import dev.engram.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@code server.db}: the server's own SQLite file beside the data directory's {@code engram.db},
 * holding API keys and add events. One connection guarded by a lock (its statements take
 * microseconds); WAL and a busy timeout let the {@code engram keys} command write while a server
 * runs. Every write is one transaction.
 */
public final class ServerDatabase implements SqlTransactions, AutoCloseable {
  /** The file name inside the data directory. */
  public static final String FILE_NAME = "server.db";

  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS api_keys (id TEXT PRIMARY KEY, tenant TEXT NOT NULL, role TEXT NOT NULL,"
        + " label TEXT NOT NULL, prefix TEXT NOT NULL, hash BLOB NOT NULL, created_at TEXT NOT NULL,"
        + " revoked_at TEXT)",
    "CREATE TABLE IF NOT EXISTS add_events (id TEXT PRIMARY KEY, tenant TEXT NOT NULL, status TEXT NOT NULL,"
        + " payload TEXT NOT NULL, results TEXT, error TEXT, created_at TEXT NOT NULL, started_at TEXT,"
        + " completed_at TEXT, seq INTEGER NOT NULL, owner TEXT, lease_until INTEGER)",
    "CREATE INDEX IF NOT EXISTS add_events_tenant ON add_events (tenant, seq)",
    "CREATE INDEX IF NOT EXISTS add_events_status ON add_events (status, seq)",
    // An event's seq is MAX(seq) + 1: without an index that leads with seq, every insert scanned
    // every event ever stored.
    "CREATE INDEX IF NOT EXISTS add_events_seq ON add_events (seq)"
  };

  private final Connection connection;
  private final ReentrantLock lock = new ReentrantLock();
  private final Path file;

  private ServerDatabase(Path file, Connection connection) {
    this.file = file;
    this.connection = connection;
  }

  /** Opens (creating if needed) {@code server.db} in a directory. */
  public static ServerDatabase open(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    try {
      Files.createDirectories(directory);
      // Every transaction here writes: BEGIN IMMEDIATE takes the write lock first (waiting up to
      // the busy timeout),
      // so a transaction that reads and then writes never fails to upgrade its lock when another
      // process writes.
      org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
      config.setTransactionMode(org.sqlite.SQLiteConfig.TransactionMode.IMMEDIATE);
      Connection c =
          DriverManager.getConnection(
              "jdbc:sqlite:" + file.toAbsolutePath(), config.toProperties());
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA busy_timeout = 10000");
        s.execute("PRAGMA journal_mode = WAL");
        s.execute("PRAGMA synchronous = NORMAL");
        for (String ddl : SCHEMA) {
          s.execute(ddl);
        }
        addLeaseColumns(s);
      }
      return new ServerDatabase(file, c);
    } catch (SQLException | java.io.IOException e) {
      throw new StorageException(
          "cannot open the server database " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A server.db written before add events had leases gets the two columns (an event without a lease
   * is free).
   */
  private static void addLeaseColumns(Statement s) throws SQLException {
    boolean hasOwner = false;
    try (java.sql.ResultSet rs = s.executeQuery("PRAGMA table_info(add_events)")) {
      while (rs.next()) {
        hasOwner |= rs.getString("name").equals("owner");
      }
    }
    if (!hasOwner) {
      s.execute("ALTER TABLE add_events ADD COLUMN owner TEXT");
      s.execute("ALTER TABLE add_events ADD COLUMN lease_until INTEGER");
    }
  }

  /** Runs a read under the lock. */
  @Override
  public <T> T read(String what, Work<T> work) {
    lock.lock();
    try {
      return work.run(connection);
    } catch (SQLException e) {
      throw new StorageException("cannot " + what + " in " + file + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  /** Runs a write in one transaction under the lock. */
  @Override
  public <T> T write(String what, Work<T> work) {
    lock.lock();
    try {
      connection.setAutoCommit(false);
      try {
        T out = work.run(connection);
        connection.commit();
        return out;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new StorageException("cannot " + what + " in " + file + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    lock.lock();
    try {
      connection.close();
    } catch (SQLException e) {
      throw new StorageException("cannot close " + file + ": " + e.getMessage(), e);
    } finally {
      lock.unlock();
    }
  }
}

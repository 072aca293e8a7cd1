package dev.engram.server.store;

import dev.engram.StorageException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
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
      wakeNextWriter();
    }
  }

  /**
   * Runs a write (never inside another: a work does not call this database) in a transaction of its
   * own or, when other threads write at the same time, in one transaction with theirs (group
   * commit): the first writer to find no transaction running takes every write queued so far, runs
   * each inside a savepoint (a failing one is rolled back alone and fails alone), commits once and
   * wakes their threads; the others wait for that commit. A write returns only once the commit that
   * holds it has been made, so an acknowledged write is exactly as durable as before; what is
   * shared is the lock hand-over and the commit, which under concurrent adds (two writes each) were
   * the server's own cost.
   */
  @Override
  public <T> T write(String what, Work<T> work) {
    QueuedWrite<T> mine = new QueuedWrite<>(what, work);
    queued.add(mine);
    while (!mine.done) {
      if (lock.tryLock()) {
        try {
          if (!mine.done) {
            runQueued();
          }
        } finally {
          lock.unlock();
        }
        wakeNextWriter(); // writes queued while this transaction ran: the oldest leads the next
      } else {
        // woken when done, or when the lock's holder finished without taking this write
        LockSupport.parkNanos(this, LEADER_CHECK_NANOS);
      }
    }
    return mine.result();
  }

  /** How long a queued write waits before it checks whether the lock is free. */
  private static final long LEADER_CHECK_NANOS = 1_000_000;

  /** Writes waiting for a transaction, oldest first. */
  private final ConcurrentLinkedQueue<QueuedWrite<?>> queued = new ConcurrentLinkedQueue<>();

  /** A write waiting for its transaction, then its outcome. */
  private static final class QueuedWrite<T> {
    final String what;
    final Work<T> work;
    final Thread thread = Thread.currentThread();
    volatile boolean done;
    T value;
    Throwable failure;

    QueuedWrite(String what, Work<T> work) {
      this.what = what;
      this.work = work;
    }

    void run(Connection c) throws SQLException {
      value = work.run(c);
    }

    T result() {
      if (failure instanceof RuntimeException r) {
        throw r;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      if (failure != null) {
        throw new IllegalStateException(failure);
      }
      return value;
    }
  }

  /** Under the lock: runs every queued write in one transaction and completes them. */
  private void runQueued() {
    List<QueuedWrite<?>> batch = new ArrayList<>();
    for (QueuedWrite<?> w = queued.poll(); w != null; w = queued.poll()) {
      batch.add(w);
    }
    if (batch.isEmpty()) {
      return;
    }
    try {
      connection.setAutoCommit(false);
      try {
        for (QueuedWrite<?> w : batch) {
          runInSavepoint(w);
        }
        connection.commit();
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      } finally {
        connection.setAutoCommit(true);
      }
    } catch (SQLException | RuntimeException e) {
      for (QueuedWrite<?> w : batch) {
        if (w.failure == null) {
          w.failure =
              e instanceof SQLException
                  ? new StorageException(
                      "cannot " + w.what + " in " + file + ": " + e.getMessage(), e)
                  : e;
        }
      }
    } finally {
      for (QueuedWrite<?> w : batch) {
        w.done = true;
        LockSupport.unpark(w.thread);
      }
    }
  }

  /**
   * Runs a write inside a savepoint of the running transaction: if it fails, it alone is rolled
   * back and its failure recorded for its thread.
   */
  private void runInSavepoint(QueuedWrite<?> w) {
    Savepoint sp = null;
    try {
      sp = connection.setSavepoint();
      w.run(connection);
      connection.releaseSavepoint(sp);
    } catch (SQLException | RuntimeException | Error e) {
      if (sp != null) {
        try {
          connection.rollback(sp);
          connection.releaseSavepoint(sp);
        } catch (SQLException rollback) {
          e.addSuppressed(rollback);
        }
      }
      w.failure =
          e instanceof SQLException
              ? new StorageException("cannot " + w.what + " in " + file + ": " + e.getMessage(), e)
              : e;
    }
  }

  /** Wakes the oldest queued write, to lead the next transaction now that the lock is free. */
  private void wakeNextWriter() {
    QueuedWrite<?> next = queued.peek();
    if (next != null) {
      LockSupport.unpark(next.thread);
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

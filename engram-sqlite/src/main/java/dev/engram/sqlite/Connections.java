package dev.engram.sqlite;

import dev.engram.StorageException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.locks.ReentrantLock;
import org.sqlite.SQLiteConfig;

/**
 * The connections of one store: a single writer connection, used under a lock so that writes are
 * serialised, and a pool of read-only connections that read concurrently (WAL readers never wait
 * for the writer). A reader is borrowed for one call; when the pool is empty a new one is opened,
 * so nested reads (a visitor that reads) cannot deadlock. Every connection has a busy timeout, so a
 * checkpoint or another process's lock delays a call instead of failing it.
 *
 * <p>Thread-safe.
 */
final class Connections implements AutoCloseable {
  /** Milliseconds a statement waits for a lock before SQLite reports SQLITE_BUSY. */
  static final int BUSY_TIMEOUT_MS = 60_000;

  private static final int MAX_IDLE_READERS = 8;

  /**
   * How much of the database file each connection reads through memory-mapped I/O ({@code PRAGMA
   * mmap_size}), 1 GiB: address space, not memory, and the mapped pages are the operating system's
   * file cache, shared by every connection. A search reads the records of some hundred candidates;
   * through SQLite's own page cache (2 MB a connection by default) a store larger than that read
   * most of them with a system call each, which cost a search on BEAM's stores about 1 ms of CPU in
   * 6 (docs/benchmarks/log.md, "SQLite's reads memory-mapped"). Pages past the mapping, and those
   * of the write-ahead log, are read as before. A mapped read fails by a signal, not an error, if
   * the file shrinks under it; the store never shrinks its file (no {@code VACUUM}, no
   * auto-vacuum), and SQLite reads through {@code pread} where a mapping cannot be made.
   */
  static final long MMAP_BYTES = 1L << 30;

  private final Path file;
  private final String url;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final Handle writer;
  private final Deque<Handle> idleReaders = new ArrayDeque<>();
  private volatile boolean closed;

  private Connections(Path file, Handle writer) {
    this.file = file;
    this.url = "jdbc:sqlite:" + file;
    this.writer = writer;
  }

  /** Opens the writer connection (which sets WAL mode) of a database file. */
  static Connections open(Path file, Durability durability) throws SQLException {
    SQLiteConfig config = baseConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(durability.pragmaValue()));
    Handle writer = new Handle(config.createConnection("jdbc:sqlite:" + file));
    try {
      SqlFunctions.register(writer.connection());
      return new Connections(file, writer);
    } catch (SQLException | RuntimeException e) {
      writer.close();
      throw e;
    }
  }

  private static SQLiteConfig baseConfig() {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    config.enforceForeignKeys(true);
    config.setTempStore(SQLiteConfig.TempStore.MEMORY);
    config.setPragma(SQLiteConfig.Pragma.MMAP_SIZE, Long.toString(MMAP_BYTES));
    return config;
  }

  Path file() {
    return file;
  }

  /** Runs {@code work} on a reader in autocommit mode: each statement sees the latest commit. */
  <T> T read(String what, SqlWork<T> work) {
    Handle h = borrow(what);
    try {
      return work.run(h);
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      giveBack(h);
    }
  }

  /**
   * Runs {@code work} on a reader inside one read transaction, so that all its statements see one
   * snapshot.
   */
  <T> T readSnapshot(String what, SqlWork<T> work) {
    return read(
        what,
        h -> {
          h.exec("BEGIN");
          try {
            return work.run(h);
          } finally {
            h.exec("COMMIT");
          }
        });
  }

  /**
   * Runs {@code work} on the writer inside one {@code BEGIN IMMEDIATE} transaction, holding the
   * write lock; commits if it returns and rolls back if it throws anything.
   */
  <T> T write(String what, SqlWork<T> work) {
    writeLock.lock();
    try {
      checkOpen(what);
      writer.exec("BEGIN IMMEDIATE");
      boolean committed = false;
      try {
        T result = work.run(writer);
        writer.exec("COMMIT");
        committed = true;
        return result;
      } finally {
        if (!committed) {
          rollbackQuietly();
        }
      }
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Runs {@code work} on the writer without a transaction (schema setup), holding the write lock.
   */
  <T> T writeRaw(String what, SqlWork<T> work) {
    writeLock.lock();
    try {
      checkOpen(what);
      return work.run(writer);
    } catch (SQLException e) {
      throw failure(what, e);
    } finally {
      writeLock.unlock();
    }
  }

  private void rollbackQuietly() {
    try {
      writer.exec("ROLLBACK");
    } catch (SQLException ignored) {
      // No transaction is open any more (SQLite rolled it back itself); nothing was committed.
    }
  }

  StorageException failure(String what, SQLException e) {
    return new StorageException(
        "SQLite store " + file + ": could not " + what + ": " + e.getMessage(), e);
  }

  private Handle borrow(String what) {
    synchronized (idleReaders) {
      checkOpen(what);
      Handle h = idleReaders.pollFirst();
      if (h != null) {
        return h;
      }
    }
    try {
      SQLiteConfig config = baseConfig();
      Handle h = new Handle(config.createConnection(url));
      SqlFunctions.register(h.connection());
      h.exec("PRAGMA query_only = 1");
      return h;
    } catch (SQLException e) {
      throw failure("open a read connection to " + what, e);
    }
  }

  private void giveBack(Handle h) {
    synchronized (idleReaders) {
      if (!closed && idleReaders.size() < MAX_IDLE_READERS) {
        idleReaders.addFirst(h);
        return;
      }
    }
    closeQuietly(h);
  }

  private void checkOpen(String what) {
    if (closed) {
      throw new StorageException("SQLite store " + file + " is closed; cannot " + what);
    }
  }

  @Override
  public void close() {
    writeLock.lock();
    try {
      synchronized (idleReaders) {
        if (closed) {
          return;
        }
        closed = true;
        for (Handle h : idleReaders) {
          closeQuietly(h);
        }
        idleReaders.clear();
      }
      try {
        writer.close();
      } catch (SQLException e) {
        throw failure("close", e);
      }
    } finally {
      writeLock.unlock();
    }
  }

  private static void closeQuietly(Handle h) {
    try {
      h.close();
    } catch (SQLException ignored) {
      // Closing a read-only connection loses nothing.
    }
  }
}

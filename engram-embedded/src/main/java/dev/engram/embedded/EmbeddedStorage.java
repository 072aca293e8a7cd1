package dev.engram.embedded;

import dev.engram.DimensionMismatchException;
import dev.engram.StorageException;
import dev.engram.ValidationException;
import dev.engram.lucene.LuceneSearchIndex;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.GraphStore;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import dev.engram.spi.StorageFactory;
import dev.engram.sqlite.Durability;
import dev.engram.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default storage: one data directory holding the SQLite record ({@code engram.db})
 * and the Lucene index derived from it ({@code index/}), with the graph memory in the same SQLite
 * file, owned by one process at a time through an OS file lock on {@code engram.lock}.
 *
 * <p>The index can always be rebuilt from the record: an index directory that is missing is created
 * empty, and one that is damaged (a checksum, file or lock that fails {@link
 * LuceneSearchIndex#open}'s checks) is moved aside to {@code index.broken} and recreated empty; the
 * engine then rebuilds it from the record when it opens (see {@code dev.engram.engine.IndexSync}),
 * and recreates it the same way when it fails at run time.
 *
 * <p><b>Threading.</b> Thread-safe, as its store and index are. {@link #close()} closes the index,
 * then the store, then releases the lock; it is idempotent.
 */
public final class EmbeddedStorage implements Storage {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedStorage.class);

  /** The record's file name inside the data directory. */
  public static final String DATABASE_FILE = "engram.db";

  /** The index's directory name inside the data directory. */
  public static final String INDEX_DIRECTORY = "index";

  /** The lock file's name inside the data directory. */
  public static final String LOCK_FILE = "engram.lock";

  private final Path dataDir;
  private final DataDirectoryLock lock;
  private final SqliteMemoryStore store;
  private final LuceneSearchIndex index;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedStorage(
      Path dataDir, DataDirectoryLock lock, SqliteMemoryStore store, LuceneSearchIndex index) {
    this.dataDir = dataDir;
    this.lock = lock;
    this.store = store;
    this.index = index;
  }

  /**
   * The factory for {@code Engram.builder().storage(...)}: the data directory {@code dataDir},
   * opened (created if needed) by {@code build()} for the embedder's dimension, with {@link
   * Durability#NORMAL} durability (change it with {@link Opener#durability}) and the store's
   * default budget of memories kept between reads ({@link
   * SqliteMemoryStore#defaultRecordCacheBytes}; change it with {@link Opener#recordCacheBytes}).
   *
   * @throws ValidationException naming {@code dataDir} if it is null
   */
  public static Opener at(Path dataDir) {
    return new Opener(dataDir, Durability.NORMAL);
  }

  /**
   * A data directory to open when the memory is built ({@link #at}).
   *
   * @param dataDir the data directory
   * @param durability the durability of its commits
   * @param recordCacheBytes the most estimated bytes of memories the store keeps between reads, and
   *     of graph relations as many again (0 keeps none; see {@link SqliteMemoryStore})
   */
  public record Opener(Path dataDir, Durability durability, long recordCacheBytes)
      implements StorageFactory {
    /**
     * @throws ValidationException naming the setting if one is missing or invalid
     */
    public Opener {
      if (dataDir == null) {
        throw new ValidationException("dataDir", "is required");
      }
      if (durability == null) {
        throw new ValidationException("durability", "is required (NORMAL or FULL)");
      }
      checkRecordCache(recordCacheBytes);
    }

    /** A data directory with the store's default budget of memories kept between reads. */
    public Opener(Path dataDir, Durability durability) {
      this(dataDir, durability, SqliteMemoryStore.defaultRecordCacheBytes());
    }

    /** The same directory with another durability. */
    public Opener durability(Durability newDurability) {
      return new Opener(dataDir, newDurability, recordCacheBytes);
    }

    /** The same directory with another budget of memories kept between reads (0 keeps none). */
    public Opener recordCacheBytes(long bytes) {
      return new Opener(dataDir, durability, bytes);
    }

    @Override
    public EmbeddedStorage open(EmbeddingSpec embedding) {
      return EmbeddedStorage.open(dataDir, embedding.dimension(), durability, recordCacheBytes);
    }
  }

  private static void checkRecordCache(long bytes) {
    if (bytes < 0) {
      throw new ValidationException(
          "recordCacheBytes", "must be 0 (keep none) or more, got " + bytes);
    }
  }

  /**
   * Opens (creating if needed) a data directory with {@link Durability#NORMAL} durability: commits
   * survive a crash of the process; the last ones may be lost on power failure.
   *
   * @param dataDir the data directory
   * @param dimension the embedder's vector length ({@code embedder.dimension()})
   * @throws dev.engram.DataDirectoryLockedException if another process (or another open storage in
   *     this process) owns the directory
   * @throws DimensionMismatchException if the directory holds embeddings of another dimension
   * @throws StorageException if the directory cannot be created or opened
   */
  public static EmbeddedStorage open(Path dataDir, int dimension) {
    return open(dataDir, dimension, Durability.NORMAL);
  }

  /**
   * Opens (creating if needed) a data directory.
   *
   * @param dataDir the data directory
   * @param dimension the embedder's vector length ({@code embedder.dimension()})
   * @param durability {@link Durability#NORMAL} to survive process crashes, {@link Durability#FULL}
   *     to also survive power failures (an fsync per commit)
   * @throws dev.engram.DataDirectoryLockedException if another process (or another open storage in
   *     this process) owns the directory
   * @throws DimensionMismatchException if the directory holds embeddings of another dimension
   * @throws StorageException if the directory cannot be created or opened
   * @throws ValidationException naming the setting if one is missing or invalid
   */
  public static EmbeddedStorage open(Path dataDir, int dimension, Durability durability) {
    return open(dataDir, dimension, durability, SqliteMemoryStore.defaultRecordCacheBytes());
  }

  /**
   * Opens (creating if needed) a data directory whose store keeps at most {@code recordCacheBytes}
   * estimated bytes of the memories it read, and as many of graph relations (0 keeps none), as
   * {@link #open(Path, int, Durability)} does otherwise.
   *
   * @throws ValidationException naming the setting if one is missing or invalid
   */
  public static EmbeddedStorage open(
      Path dataDir, int dimension, Durability durability, long recordCacheBytes) {
    checkRecordCache(recordCacheBytes);
    if (dataDir == null) {
      throw new ValidationException("dataDir", "is required");
    }
    if (durability == null) {
      throw new ValidationException("durability", "is required (NORMAL or FULL)");
    }
    if (dimension < 1) {
      throw new ValidationException("dimension", "must be positive, got " + dimension);
    }
    Path dir = dataDir.toAbsolutePath().normalize();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new StorageException(
          "could not create the data directory " + dir + ": " + e.getMessage(), e);
    }
    DataDirectoryLock lock = DataDirectoryLock.acquire(dir, dir.resolve(LOCK_FILE));
    SqliteMemoryStore store = null;
    try {
      store = SqliteMemoryStore.open(dir.resolve(DATABASE_FILE), durability, recordCacheBytes);
      checkDimension(dir, store, dimension);
      LuceneSearchIndex index = LuceneSearchIndex.open(dir.resolve(INDEX_DIRECTORY), dimension);
      LOG.debug("opened data directory {}", dir);
      return new EmbeddedStorage(dir, lock, store, index);
    } catch (RuntimeException | Error e) {
      closeQuietly(store, e);
      lock.release();
      throw e;
    }
  }

  /** Fails before the index is touched if the record holds embeddings of another length. */
  private static void checkDimension(Path dir, MemoryStore store, int dimension) {
    Optional<EmbeddingSpec> spec = store.embeddingSpec();
    if (spec.isPresent() && spec.get().dimension() != dimension) {
      throw new DimensionMismatchException(
          "the data directory "
              + dir
              + " holds "
              + spec.get().dimension()
              + "-dimensional embeddings from model '"
              + spec.get().modelId()
              + "', but it was opened for "
              + dimension
              + "-dimensional ones; configure '"
              + spec.get().modelId()
              + "' or use another data directory");
    }
  }

  /** The data directory (absolute). */
  public Path dataDir() {
    return dataDir;
  }

  @Override
  public MemoryStore records() {
    return store;
  }

  @Override
  public SearchIndex index() {
    return index;
  }

  /** The graph memory, kept in the SQLite record ({@link SqliteMemoryStore#graph()}). */
  @Override
  public Optional<GraphStore> graph() {
    return Optional.of(store.graph());
  }

  /** True: an add's graph changes commit in the same SQLite transaction as its memory changes. */
  @Override
  public boolean graphCommitsWithRecords() {
    return true;
  }

  /** Closes the index, then the store, then releases the data-directory lock. Idempotent. */
  @Override
  public void close() throws IOException {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      try {
        index.close();
      } finally {
        store.close();
      }
    } finally {
      lock.release();
    }
  }

  private static void closeQuietly(AutoCloseable c, Throwable primary) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      primary.addSuppressed(e);
    }
  }
}

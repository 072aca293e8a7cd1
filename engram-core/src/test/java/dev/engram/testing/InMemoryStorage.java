package dev.engram.testing;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The reference backend: an {@link InMemoryMemoryStore} and an {@link InMemorySearchIndex}.
 * Storages opened on the same path share their data across close and reopen (within one JVM), so
 * the persistence tests of the contract kit run on it too; {@link #damageIndex} forgets a path's
 * index, which the engine then rebuilds from the record.
 */
public final class InMemoryStorage implements Storage {
  private static final Map<Path, InMemoryMemoryStore> STORES = new ConcurrentHashMap<>();
  private static final Map<Path, InMemorySearchIndex> INDEXES = new ConcurrentHashMap<>();

  private final InMemoryMemoryStore records;
  private final InMemorySearchIndex index;

  private InMemoryStorage(InMemoryMemoryStore records, InMemorySearchIndex index) {
    this.records = records;
    this.index = index;
  }

  /** A fresh storage that no other one shares. */
  public static InMemoryStorage create() {
    return new InMemoryStorage(
        new InMemoryMemoryStore(Clock.systemUTC()), new InMemorySearchIndex());
  }

  /** The storage of {@code dir}: the data of the last storage opened there, or empty. */
  public static InMemoryStorage open(Path dir) {
    Path key = dir.toAbsolutePath().normalize();
    InMemoryMemoryStore store =
        STORES.computeIfAbsent(key, k -> new InMemoryMemoryStore(Clock.systemUTC()));
    InMemorySearchIndex index = INDEXES.computeIfAbsent(key, k -> new InMemorySearchIndex());
    store.reopen();
    index.reopen();
    return new InMemoryStorage(store, index);
  }

  /**
   * Forgets the index of {@code dir}; the next {@link #open} starts with an empty index of no
   * generation.
   */
  public static void damageIndex(Path dir) {
    INDEXES.remove(dir.toAbsolutePath().normalize());
  }

  @Override
  public MemoryStore records() {
    return records;
  }

  @Override
  public SearchIndex index() {
    return index;
  }

  @Override
  public void close() {
    index.close();
    records.close();
  }
}

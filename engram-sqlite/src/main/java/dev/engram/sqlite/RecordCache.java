package dev.engram.sqlite;

import dev.engram.MemoryItem;
import dev.engram.spi.SizedLruMap;
import dev.engram.spi.StoredMemory;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Memories recently read, so that searches that read the same ones again do not read and decode
 * their rows each time: a search reads a few hundred (the metadata of its fused candidates, and the
 * records it walks to fill its top-k or its budget), mostly the same for the queries of one scope.
 * A memory is kept whole ({@link SqliteMemoryStore#getAll}) or as its metadata alone ({@link
 * SqliteMemoryStore#metadata}); the least recently used are dropped beyond a budget of estimated
 * bytes ({@link #defaultBudget}).
 *
 * <p>Every write of a tenant's memories, once it has ended (committed or not), bumps the tenant's
 * version and drops the memories it wrote (all of the tenant's for a reset or a restore), and what
 * was read under an older version is not kept: a reader racing a writer never caches stale rows,
 * and once a write has returned no reader is served what it replaced. Like {@link GraphCache}, it
 * relies on the store being the only writer of its file, as {@code EmbeddedStorage}'s lock makes
 * it. Thread-safe.
 */
final class RecordCache {
  /**
   * Most estimated bytes kept in all by default, 64 MiB (about 20,000 memories of 384 dimensions),
   * or less on a small heap ({@link #defaultBudget}).
   */
  static final long BUDGET_BYTES = 64L << 20;

  private record Key(String tenant, String id) {}

  /** A memory kept whole, or its metadata alone. */
  private sealed interface Cached permits Whole, MetadataOnly {
    Map<String, Object> metadata();

    long bytes();
  }

  private record Whole(StoredMemory memory, long bytes) implements Cached {
    @Override
    public Map<String, Object> metadata() {
      return memory.item().metadata();
    }
  }

  private record MetadataOnly(Map<String, Object> metadata, long bytes) implements Cached {}

  private final Map<String, Long> versions = new HashMap<>();
  private final SizedLruMap<Key, Cached> entries;

  /** A cache of at most {@code budget} estimated bytes (0 keeps nothing). */
  RecordCache(long budget) {
    this.entries = new SizedLruMap<>(budget, Cached::bytes);
  }

  /** {@value #BUDGET_BYTES} bytes, or a sixteenth of a heap of at most {@code maxHeap} bytes. */
  static long defaultBudget(long maxHeap) {
    return Math.min(BUDGET_BYTES, maxHeap / 16);
  }

  /** The tenant's current version: read it before reading rows, and pass it to the put. */
  synchronized long version(String tenant) {
    return versions.getOrDefault(tenant, 0L);
  }

  /** The kept whole memories of {@code ids}, by id. */
  synchronized Map<String, StoredMemory> memories(String tenant, Collection<String> ids) {
    Map<String, StoredMemory> out = new HashMap<>();
    for (String id : ids) {
      if (entries.get(new Key(tenant, id)).orElse(null) instanceof Whole w) {
        out.put(id, w.memory());
      }
    }
    return out;
  }

  /** The kept metadata of {@code ids}, of whole memories or alone, by id. */
  synchronized Map<String, Map<String, Object>> metadata(String tenant, Collection<String> ids) {
    Map<String, Map<String, Object>> out = new HashMap<>();
    for (String id : ids) {
      entries.get(new Key(tenant, id)).ifPresent(c -> out.put(id, c.metadata()));
    }
    return out;
  }

  /** Keeps whole memories read under {@code version}, unless the tenant was written since. */
  synchronized void putMemories(String tenant, long version, Collection<StoredMemory> read) {
    if (version != version(tenant)) {
      return;
    }
    for (StoredMemory m : read) {
      entries.put(new Key(tenant, m.id()), new Whole(m, bytes(m)));
    }
  }

  /**
   * Keeps metadata read under {@code version}, by id, unless the tenant was written since; a memory
   * kept whole stays whole.
   */
  synchronized void putMetadata(
      String tenant, long version, Map<String, Map<String, Object>> read) {
    if (version != version(tenant)) {
      return;
    }
    read.forEach(
        (id, metadata) -> {
          Key key = new Key(tenant, id);
          if (!(entries.get(key).orElse(null) instanceof Whole)) {
            entries.put(key, new MetadataOnly(metadata, metadataBytes(id, metadata)));
          }
        });
  }

  /**
   * Drops the tenant's memories {@code written}; called after a write of them has ended. A write of
   * none (a change set of window messages alone, as most adds append) changes nothing here.
   */
  synchronized void invalidate(String tenant, Collection<String> written) {
    if (written.isEmpty()) {
      return;
    }
    versions.merge(tenant, 1L, Long::sum);
    for (String id : written) {
      entries.remove(new Key(tenant, id));
    }
  }

  /** Drops all the tenant's memories; called after a reset or a restore has ended. */
  synchronized void invalidate(String tenant) {
    versions.merge(tenant, 1L, Long::sum);
    entries.removeIf((key, cached) -> key.tenant().equals(tenant));
  }

  /** Estimated bytes kept, for tests. */
  synchronized long bytes() {
    return entries.size();
  }

  /** A whole memory's estimated size: its vectors, its strings (two bytes a char), its metadata. */
  private static long bytes(StoredMemory m) {
    MemoryItem it = m.item();
    long chars =
        it.id().length()
            + it.text().length()
            + it.hash().length()
            + m.context().length()
            + it.sourceIds().stream().mapToLong(String::length).sum();
    return 512
        + 4L * (m.embeddingView().length + m.contextEmbeddingView().length)
        + 2 * chars
        + metadataBytes("", it.metadata());
  }

  private static long metadataBytes(String id, Map<String, Object> metadata) {
    return 128 + 2L * id.length() + 128L * metadata.size();
  }
}

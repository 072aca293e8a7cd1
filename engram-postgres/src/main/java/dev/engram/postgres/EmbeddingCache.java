package dev.engram.postgres;

import dev.engram.spi.SizedLruMap;

/**
 * Decoded embeddings of memory rows, for the plain-array path's dense searches ({@link
 * CachedCosineSearch}), so that a search reads only the ids and sequence numbers of the memories it
 * restricts to and decodes only the rows it has not seen. It holds both vector columns of a row
 * ({@link Column}): the embedding and the context embedding, under one budget.
 *
 * <p><b>Never stale.</b> An entry is the embedding of one version of one row: (tenant, id, {@code
 * seq}). Every write of a memory row (insert, update, import) stores a new {@code seq}, reserved
 * from {@code store_state.last_seq}, which only grows (a reset does not lower it) and whose
 * reservation commits with the row. So a (tenant, id, seq) names one embedding forever, in every
 * process on the schema. A search uses an entry only when the row it read in the database carries
 * exactly that {@code seq}; a deleted row is not read at all. A write of another process needs no
 * message: its rows carry new numbers. Entries are kept after this process's own commits
 * (write-through) and after a search reads a row's embedding.
 *
 * <p><b>Bounded.</b> Least recently used entries are dropped beyond a budget of bytes (the floats
 * plus an estimate of the key and map overhead). Thread-safe: one lock, taken once per search for
 * all of its lookups.
 */
final class EmbeddingCache {
  /**
   * Estimated bytes of one entry beyond its floats: key, id and tenant strings, entry record, map
   * node.
   */
  static final long ENTRY_OVERHEAD = 200;

  /** The {@code real[]} columns of {@code memories} whose vectors it holds. */
  enum Column {
    /** The memory's embedding ({@code embedding}). */
    EMBEDDING("embedding"),
    /**
     * The embedding of its source context and text ({@code context_embedding}, migration V13; '{}'
     * for none).
     */
    CONTEXT_EMBEDDING("context_embedding");

    final String name;

    Column(String name) {
      this.name = name;
    }
  }

  private record Key(Column column, String tenant, String id) {}

  // A cached vector is kept as read, with no boxing; entries are looked up by key, never compared
  // by equals.
  @SuppressWarnings("ArrayRecordComponent")
  private record Entry(long seq, float[] vector) {
    long bytes() {
      return 4L * vector.length + ENTRY_OVERHEAD;
    }
  }

  private final SizedLruMap<Key, Entry> entries;

  /** A cache of at most {@code budgetBytes} (at least 1). */
  EmbeddingCache(long budgetBytes) {
    if (budgetBytes < 1) {
      throw new IllegalArgumentException("the cache budget must be positive, got " + budgetBytes);
    }
    this.entries = new SizedLruMap<>(budgetBytes, Entry::bytes);
  }

  /** {@link #lookup(Column, String, String[], long[])} of the embeddings. */
  float[][] lookup(String tenant, String[] ids, long[] seqs) {
    return lookup(Column.EMBEDDING, tenant, ids, seqs);
  }

  /**
   * The cached vectors of {@code column} of the rows ({@code tenant}, {@code ids[i]}) at version
   * {@code seqs[i]}: element {@code i} is null where the cache holds no vector of exactly that
   * version.
   */
  synchronized float[][] lookup(Column column, String tenant, String[] ids, long[] seqs) {
    float[][] out = new float[ids.length][];
    for (int i = 0; i < ids.length; i++) {
      Entry e = entries.get(new Key(column, tenant, ids[i])).orElse(null);
      if (e != null && e.seq == seqs[i]) {
        out[i] = e.vector;
      }
    }
    return out;
  }

  /** {@link #put(Column, String, String, long, float[])} of an embedding. */
  void put(String tenant, String id, long seq, float[] vector) {
    put(Column.EMBEDDING, tenant, id, seq, vector);
  }

  /**
   * Keeps the vector of {@code column} of row ({@code tenant}, {@code id}) at version {@code seq},
   * read from the database or written by a committed transaction; ignored if the cache holds a
   * newer version of the row. The caller gives up {@code vector}: it must not change it afterwards.
   */
  synchronized void put(Column column, String tenant, String id, long seq, float[] vector) {
    Key key = new Key(column, tenant, id);
    if (entries.get(key).filter(old -> old.seq >= seq).isEmpty()) {
      entries.put(key, new Entry(seq, vector));
    }
  }

  /**
   * Drops the row's entries (it was deleted); only to free memory, since a deleted row is never
   * looked up.
   */
  synchronized void remove(String tenant, String id) {
    for (Column column : Column.values()) {
      entries.remove(new Key(column, tenant, id));
    }
  }

  /** Drops every entry of {@code tenant} (after a reset), to free memory. */
  synchronized void removeTenant(String tenant) {
    entries.removeIf((key, entry) -> key.tenant().equals(tenant));
  }

  /** How many vectors are cached. */
  synchronized int size() {
    return entries.count();
  }

  /** The estimated bytes held, at most the budget. */
  synchronized long bytes() {
    return entries.size();
  }

  /** The budget in bytes. */
  long budget() {
    return entries.budget();
  }
}

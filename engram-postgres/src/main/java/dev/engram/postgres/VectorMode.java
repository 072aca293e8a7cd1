package dev.engram.postgres;

import java.util.Locale;

/** How {@link PostgresStorage} stores and searches embeddings ({@code store.vectors}). */
public enum VectorMode {
  /**
   * pgvector if the server offers the {@code vector} extension, else {@link #ARRAY} with a warning
   * at open.
   */
  AUTO,
  /**
   * pgvector: a {@code vector(n)} column with an HNSW index (cosine), exact distance for small
   * scopes and the index with iterative scans for large ones. Opening fails if the server has no
   * {@code vector} extension.
   */
  PGVECTOR,
  /**
   * Plain PostgreSQL: vectors in a {@code real[]} column, scored exactly (reads the whole searched
   * scope): in Java over a per-process embedding cache ({@link PostgresSettings#vectorCacheMb}), or
   * in SQL when it is 0.
   */
  ARRAY;

  /** Parses {@code auto}, {@code pgvector} or {@code array} (any case). */
  public static VectorMode parse(String value) {
    for (VectorMode m : values()) {
      if (m.name().equalsIgnoreCase(value.trim())) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "store.vectors must be auto, pgvector or array, got '" + value + "'");
  }

  /** The settings spelling: {@code auto}, {@code pgvector} or {@code array}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}

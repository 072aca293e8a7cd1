package dev.engram.bench.scale;

import dev.engram.spi.Storage;

/**
 * Where a scale run keeps its memories: the embedded store in a data directory, or a PostgreSQL
 * schema. The run opens it empty, fills it, closes it, measures it, and opens it again.
 */
public interface BenchStore {
  /** A short name for reports, such as {@code embedded} or {@code postgres (pgvector)}. */
  String name();

  /**
   * Checks that the store holds nothing yet, so that a run never mixes with existing data.
   *
   * @throws IllegalArgumentException if it holds data
   */
  void requireEmpty();

  /** Opens the storage for vectors of {@code dimension}. */
  Storage open(int dimension);

  /** The size of the closed store, split into the record and the index. */
  ScaleReport.Disk size(long memories);
}

package dev.engram;

import java.util.List;

/**
 * What one {@link Memory#importRecords} call wrote. Immutable.
 *
 * @param imported how many records were written
 * @param skippedIds ids of records left alone because the tenant already has a memory or history
 *     with that id, in input order
 */
public record ImportResult(int imported, List<String> skippedIds) {
  public ImportResult {
    if (imported < 0) {
      throw new IllegalArgumentException("imported must not be negative, got " + imported);
    }
    skippedIds = List.copyOf(skippedIds);
  }

  /** How many records were skipped. */
  public int skipped() {
    return skippedIds.size();
  }

  /** This result plus another (for summing batches). */
  public ImportResult plus(ImportResult other) {
    List<String> ids = new java.util.ArrayList<>(skippedIds);
    ids.addAll(other.skippedIds);
    return new ImportResult(imported + other.imported, ids);
  }
}

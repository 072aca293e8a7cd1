package dev.engram;

/**
 * How a memory's stores stand, for readiness checks and metrics.
 *
 * @param recordSequence the sequence number of the record's latest change
 * @param indexCommittedSequence the sequence number of the record that the index's last durable
 *     commit reflects (it trails the record by the changes of the last commit interval; searches
 *     see every change as soon as it is applied)
 * @param indexStale true if an index write failed and the index waits to be repaired from the
 *     record
 */
public record MemoryStatus(long recordSequence, long indexCommittedSequence, boolean indexStale) {

  /**
   * Changes applied to the index but not yet durable in it (replayed from the record after a
   * crash).
   */
  public long uncommittedIndexChanges() {
    return Math.max(0, recordSequence - indexCommittedSequence);
  }

  /** True when searches see every committed change of the record. */
  public boolean indexCaughtUp() {
    return !indexStale;
  }
}

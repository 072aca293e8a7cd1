package dev.engram.spi;

import dev.engram.graph.GraphChanges;
import java.util.List;
import java.util.Objects;

/**
 * Graph changes a record store committed with their memory changes (a {@link
 * ChangeSet#graphToOutbox()} change set) and that still have to reach a separate {@link
 * GraphStore}: a transactional outbox. The engine applies the pending entries to the graph store
 * oldest first and marks each {@link #done} after the graph store applied it, so a crash or a graph
 * failure between the memory commit and the graph commit leaves the entry pending, and it is
 * applied again (graph changes are idempotent, see {@link GraphStore#apply}) before any newer one.
 *
 * <p>Thread-safe.
 */
public interface GraphOutbox {

  /** The pending entries, oldest first. */
  List<Pending> pending();

  /** Removes the entry with this sequence number (no effect if there is none). */
  void done(long seq);

  /**
   * One pending entry.
   *
   * @param seq its position in the outbox, increasing with every entry written
   * @param tenant the tenant of the changes
   * @param changes the graph changes to apply
   */
  record Pending(long seq, String tenant, GraphChanges changes) {
    public Pending {
      Objects.requireNonNull(tenant, "tenant");
      Objects.requireNonNull(changes, "changes");
    }
  }
}

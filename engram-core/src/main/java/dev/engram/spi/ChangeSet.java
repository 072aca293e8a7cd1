package dev.engram.spi;

import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.graph.GraphChanges;
import java.util.List;
import java.util.Objects;

/**
 * Everything one operation writes, committed as one transaction: memory changes with their history
 * rows, and messages appended to scopes' message windows, and graph changes (applied in the same
 * transaction by stores whose {@link Storage#graphCommitsWithRecords()} is true; other stores
 * ignore them and the engine applies them to the graph store after the commit). If {@code
 * graphToOutbox} is set, a store with a {@link MemoryStore#graphOutbox() graph outbox} writes the
 * graph changes as one outbox entry in the same transaction instead (for a separate graph store,
 * which the engine then applies them to from the outbox).
 *
 * @param tenant the tenant every change belongs to
 * @param changes memory changes, applied in order
 * @param windows messages to append to message windows, in order
 * @param graph graph changes of the same operation ({@link GraphChanges#NONE} for none)
 * @param graphToOutbox true to write non-empty graph changes into the store's graph outbox instead
 *     of its own graph (only for stores that have an outbox)
 */
public record ChangeSet(
    String tenant,
    List<MemoryChange> changes,
    List<WindowAppend> windows,
    GraphChanges graph,
    boolean graphToOutbox) {
  public ChangeSet {
    Objects.requireNonNull(tenant, "tenant");
    changes = List.copyOf(changes);
    windows = List.copyOf(windows);
    graph = graph == null ? GraphChanges.NONE : graph;
    for (MemoryChange c : changes) {
      if (!c.memory().tenant().equals(tenant)) {
        throw new IllegalArgumentException(
            "change for tenant " + c.memory().tenant() + " in a change set of " + tenant);
      }
    }
  }

  /** A change set whose graph changes go to the store's graph (not to an outbox). */
  public ChangeSet(
      String tenant, List<MemoryChange> changes, List<WindowAppend> windows, GraphChanges graph) {
    this(tenant, changes, windows, graph, false);
  }

  /** A change set without graph changes. */
  public ChangeSet(String tenant, List<MemoryChange> changes, List<WindowAppend> windows) {
    this(tenant, changes, windows, GraphChanges.NONE);
  }

  public static ChangeSet of(String tenant, List<MemoryChange> changes) {
    return new ChangeSet(tenant, changes, List.of());
  }

  /** This change set without its graph changes. */
  public ChangeSet withoutGraph() {
    return new ChangeSet(tenant, changes, windows, GraphChanges.NONE);
  }

  /**
   * This change set with its graph changes written to the store's graph outbox ({@link
   * MemoryStore#graphOutbox()}).
   */
  public ChangeSet withGraphToOutbox() {
    return new ChangeSet(tenant, changes, windows, graph, true);
  }

  public boolean isEmpty() {
    return changes.isEmpty() && windows.isEmpty() && graph.isEmpty();
  }

  /**
   * Messages appended to one scope's window; the store keeps only the newest {@code keep} of that
   * window.
   *
   * @param scope the scope
   * @param messages the messages, oldest first
   * @param keep how many messages the window keeps
   */
  public record WindowAppend(Scope scope, List<Message> messages, int keep) {
    public WindowAppend {
      Objects.requireNonNull(scope, "scope");
      messages = List.copyOf(messages);
      if (keep < 1) {
        throw new IllegalArgumentException("keep must be positive, got " + keep);
      }
    }
  }
}

package dev.engram.spi;

import dev.engram.Scope;
import java.io.Closeable;
import java.util.Optional;

/**
 * A backend: a system of record and the search index derived from it, opened together and closed
 * together. Closing the storage closes both and releases any lock it holds.
 */
public interface Storage extends Closeable {
  MemoryStore records();

  SearchIndex index();

  /**
   * The graph store of this backend, if it keeps a graph memory; empty (the default) if it has
   * none.
   */
  default Optional<GraphStore> graph() {
    return Optional.empty();
  }

  /**
   * Takes the lock that serialises adds to one scope across every process sharing this storage, and
   * holds it until the returned lease is closed. The engine takes it for {@code infer=true} adds
   * (and adds that write the graph), after its own per-scope lock in this process and before it
   * reads the scope to plan, and closes it after the commit, so two processes never plan the same
   * scope at once and never add the same fact twice. The default holds nothing: a storage that one
   * process owns (the embedded store's directory lock) needs no more.
   */
  default ScopeLease lockScope(String tenant, Scope scope) {
    return ScopeLease.NONE;
  }

  /**
   * True if {@link MemoryStore#apply} also applies {@link ChangeSet#graph()} in the same
   * transaction as the memory changes (the embedded store). If false (the default), the engine
   * applies the graph changes to {@link #graph()} after the memory commit. If the record store has
   * a {@link MemoryStore#graphOutbox() graph outbox} (the embedded store has), the graph changes
   * are first committed into the outbox with the memory changes, so a crash or a graph failure
   * between the two commits delays the graph part of an operation (it is applied at the next open
   * or graph change) but does not lose it; a record store without an outbox gives the weaker
   * guarantee: such a crash loses the graph part.
   */
  default boolean graphCommitsWithRecords() {
    return false;
  }
}

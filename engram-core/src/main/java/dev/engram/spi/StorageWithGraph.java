package dev.engram.spi;

import java.io.Closeable;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * A backend whose graph lives in a separate store (for example memories embedded, graph on Neo4j).
 * The graph changes of an add, of a delete (relations forgotten with the memory) and of a text
 * update are applied by the engine right after the memory commit ({@link
 * #graphCommitsWithRecords()} is false). If the base's record store has a {@link
 * MemoryStore#graphOutbox() graph outbox} (the embedded store has), they are committed into it with
 * the memory changes first and applied from there, so a crash or a graph failure between the two
 * commits leaves them pending until the next open or graph change applies them; with a record store
 * without an outbox, a crash between the two commits loses the graph part of that operation.
 * Closing closes the base storage and then the graph store, if it is {@link Closeable}.
 */
public final class StorageWithGraph implements Storage {
  private final Storage base;
  private final GraphStore graph;

  private StorageWithGraph(Storage base, GraphStore graph) {
    this.base = base;
    this.graph = graph;
  }

  /** {@code base}'s record and index with {@code graph} as the graph store. */
  public static StorageWithGraph of(Storage base, GraphStore graph) {
    return new StorageWithGraph(
        Objects.requireNonNull(base, "base"), Objects.requireNonNull(graph, "graph"));
  }

  @Override
  public MemoryStore records() {
    return base.records();
  }

  @Override
  public SearchIndex index() {
    return base.index();
  }

  @Override
  public Optional<GraphStore> graph() {
    return Optional.of(graph);
  }

  /** The base storage's cross-process scope lock. */
  @Override
  public ScopeLease lockScope(String tenant, dev.engram.Scope scope) {
    return base.lockScope(tenant, scope);
  }

  @Override
  public boolean graphCommitsWithRecords() {
    return false;
  }

  @Override
  public void close() throws IOException {
    try {
      base.close();
    } finally {
      if (graph instanceof Closeable c) {
        c.close();
      }
    }
  }
}

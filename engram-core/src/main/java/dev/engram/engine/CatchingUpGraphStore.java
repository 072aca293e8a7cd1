package dev.engram.engine;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.SearchIndex;
import java.util.Collection;
import java.util.List;

/**
 * The engine's view of a separate graph store fed through the record's graph outbox: before every
 * read, and before {@link #deleteScope}, it applies the outbox's pending entries (left by a graph
 * failure), so that an operation never computes graph changes from a graph that misses older ones,
 * and a scope deletion is not followed by an older pending write into that scope. If applying them
 * fails, the graph store's exception is thrown. {@link #reset} does not wait for them: the record's
 * reset already dropped the tenant's pending entries. Thread-safe.
 */
final class CatchingUpGraphStore implements GraphStore {
  private final GraphStore graph;
  private final Runnable catchUp;

  /**
   * @param graph the separate graph store
   * @param catchUp applies the pending outbox entries to {@code graph} (cheap when there are none)
   */
  CatchingUpGraphStore(GraphStore graph, Runnable catchUp) {
    this.graph = graph;
    this.catchUp = catchUp;
  }

  @Override
  public void apply(String tenant, GraphChanges changes) {
    catchUp.run();
    graph.apply(tenant, changes);
  }

  @Override
  public List<Entity> entities(String tenant, Collection<String> ids) {
    catchUp.run();
    return graph.entities(tenant, ids);
  }

  @Override
  public List<Entity> entitiesByName(
      String tenant, Scope scope, Collection<String> normalizedNames) {
    catchUp.run();
    return graph.entitiesByName(tenant, scope, normalizedNames);
  }

  @Override
  public List<ScoredEntity> similarEntities(String tenant, Scope scope, float[] vector, int k) {
    catchUp.run();
    return graph.similarEntities(tenant, scope, vector, k);
  }

  @Override
  public List<Relation> relationsOf(
      String tenant, Scope scope, Collection<String> entityIds, TimeView view) {
    catchUp.run();
    return graph.relationsOf(tenant, scope, entityIds, view);
  }

  @Override
  public List<Relation> nearestRelationsOf(
      String tenant,
      Scope scope,
      Collection<String> entityIds,
      TimeView view,
      float[] vector,
      int limit) {
    catchUp.run();
    return graph.nearestRelationsOf(tenant, scope, entityIds, view, vector, limit);
  }

  @Override
  public List<List<SearchIndex.Candidate>> similarRelationsEach(
      String tenant, Scope scope, List<float[]> vectors, int k, TimeView view) {
    catchUp.run();
    return graph.similarRelationsEach(tenant, scope, vectors, k, view);
  }

  @Override
  public List<ScoredRelation> similarRelations(
      String tenant, Scope scope, float[] vector, int k, TimeView view) {
    catchUp.run();
    return graph.similarRelations(tenant, scope, vector, k, view);
  }

  @Override
  public List<Relation> relationsFromMemories(String tenant, Collection<String> memoryIds) {
    catchUp.run();
    return graph.relationsFromMemories(tenant, memoryIds);
  }

  @Override
  public int deleteScope(String tenant, Scope scope) {
    catchUp.run();
    return graph.deleteScope(tenant, scope);
  }

  @Override
  public void reset(String tenant) {
    graph.reset(tenant);
  }

  @Override
  public String toString() {
    return "CatchingUp[" + graph + "]";
  }
}

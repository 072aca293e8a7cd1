package dev.engram.embedded;

import dev.engram.Scope;
import dev.engram.StorageException;
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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real graph store with scripted faults on {@link #apply}: the next {@link #failNextApplies}
 * applies throw a {@link StorageException} without writing, and with {@link #haltOnApply} the
 * process halts on the next apply (a {@code kill -9} between the memory commit and the graph
 * commit). Reads and the other writes go to the store.
 */
final class FaultyGraphStore implements GraphStore {
  private final GraphStore store;
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicInteger applied = new AtomicInteger();
  private volatile boolean halt;

  FaultyGraphStore(GraphStore store) {
    this.store = store;
  }

  /** The next {@code n} applies fail. */
  FaultyGraphStore failNextApplies(int n) {
    failures.set(n);
    return this;
  }

  /** The next apply halts the JVM with exit status 9 before writing. */
  FaultyGraphStore haltOnApply() {
    halt = true;
    return this;
  }

  /** How many applies reached the store. */
  int applied() {
    return applied.get();
  }

  @Override
  public void apply(String tenant, GraphChanges changes) {
    if (halt) {
      Runtime.getRuntime().halt(9);
    }
    if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new StorageException("scripted graph store outage");
    }
    store.apply(tenant, changes);
    applied.incrementAndGet();
  }

  @Override
  public List<Entity> entities(String tenant, Collection<String> ids) {
    return store.entities(tenant, ids);
  }

  @Override
  public List<Entity> entitiesByName(
      String tenant, Scope scope, Collection<String> normalizedNames) {
    return store.entitiesByName(tenant, scope, normalizedNames);
  }

  @Override
  public List<ScoredEntity> similarEntities(String tenant, Scope scope, float[] vector, int k) {
    return store.similarEntities(tenant, scope, vector, k);
  }

  @Override
  public List<Relation> relationsOf(
      String tenant, Scope scope, Collection<String> entityIds, TimeView view) {
    return store.relationsOf(tenant, scope, entityIds, view);
  }

  @Override
  public List<Relation> nearestRelationsOf(
      String tenant,
      Scope scope,
      Collection<String> entityIds,
      TimeView view,
      float[] vector,
      int limit) {
    return store.nearestRelationsOf(tenant, scope, entityIds, view, vector, limit);
  }

  @Override
  public List<List<SearchIndex.Candidate>> similarRelationsEach(
      String tenant, Scope scope, List<float[]> vectors, int k, TimeView view) {
    return store.similarRelationsEach(tenant, scope, vectors, k, view);
  }

  @Override
  public List<ScoredRelation> similarRelations(
      String tenant, Scope scope, float[] vector, int k, TimeView view) {
    return store.similarRelations(tenant, scope, vector, k, view);
  }

  @Override
  public List<Relation> relationsFromMemories(String tenant, Collection<String> memoryIds) {
    return store.relationsFromMemories(tenant, memoryIds);
  }

  @Override
  public int deleteScope(String tenant, Scope scope) {
    return store.deleteScope(tenant, scope);
  }

  @Override
  public void reset(String tenant) {
    store.reset(tenant);
  }
}

package dev.engram.engine;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the graph memory consistent with the memories it was learned from when memories are deleted
 * or their text changes. A relation's provenance ({@link Relation#memoryIds()}) names the memories
 * of the add it came from; a memory id <em>supports</em> a relation while that memory exists (ids
 * of memories that no longer exist, for example deleted earlier by the add pipeline, do not count).
 * Three cases:
 *
 * <ul>
 *   <li><b>Forgetting</b> ({@link #forget}: the user deletes specific memories, also by {@code
 *       purgeExpired}): each deleted id is removed from the provenance of every relation that lists
 *       it; a relation left without any supporting memory is deleted physically (forgetting a
 *       memory forgets what was derived from it), and so is every endpoint of such a relation that
 *       is left with no relation at all.
 *   <li><b>Contradiction</b> ({@link #contradict}: the add pipeline deletes a memory because a new
 *       fact conflicts with it): a still-valid relation whose only supporting memories are the
 *       deleted ones is invalidated ({@code invalidAt} = the add's message time, {@code expiredAt}
 *       = now), never deleted: conflicts do not erase.
 *   <li><b>Supersession</b> ({@link #supersede}: the user replaces a memory's text): a still-valid
 *       relation whose only supporting memory is that one is invalidated ({@code invalidAt} =
 *       {@code expiredAt} = now), unless the graph changes of the new text already rewrite it
 *       (stated again, judged a duplicate, or already contradicted).
 * </ul>
 *
 * <p>Each method only computes {@link GraphChanges}; the caller commits them in the same change set
 * as the memory changes (one SQLite transaction in the embedded storage), holding the scope lock of
 * the memories so that no add rewrites the same relations in between. Reads the graph store and the
 * memory store, never writes them.
 */
final class GraphRetirement {
  private final Engine engine;
  private final GraphStore graph;

  GraphRetirement(Engine engine) {
    this.engine = engine;
    this.graph = engine.graph;
  }

  /**
   * The graph changes that forget the memories with these ids (about to be deleted by the user):
   * relation provenance shrinks, relations without support and the endpoints they leave isolated
   * are deleted.
   */
  GraphChanges forget(String tenant, Collection<String> memoryIds) {
    Set<String> gone = Set.copyOf(memoryIds);
    List<Relation> found = graph.relationsFromMemories(tenant, gone);
    if (found.isEmpty()) {
      return GraphChanges.NONE;
    }
    Set<String> live = supporting(tenant, found, gone, Set.of());
    List<Relation> kept = new ArrayList<>();
    Set<String> deleted = new LinkedHashSet<>();
    Set<String> endpoints = new LinkedHashSet<>();
    for (Relation r : found) {
      List<String> remaining = r.memoryIds().stream().filter(id -> !gone.contains(id)).toList();
      if (remaining.stream().anyMatch(live::contains)) {
        kept.add(withMemoryIds(r, remaining));
      } else {
        deleted.add(r.id());
        endpoints.add(r.sourceId());
        endpoints.add(r.targetId());
      }
    }
    return new GraphChanges(List.of(), kept, deleted, isolated(tenant, endpoints, deleted));
  }

  /**
   * {@code pending} (the graph changes of an add) plus the invalidation of the still-valid
   * relations whose only supporting memories are among {@code deletedAt}'s keys, deleted by the
   * add's pipeline.
   *
   * @param deletedAt the ids of the memories the add deletes, each with its request's message time
   * @param created ids of the memories the add creates or updates (they support relations of {@code
   *     pending})
   * @param pending the add's graph changes so far; their version of a relation is the current one
   */
  GraphChanges contradict(
      String tenant, Map<String, Instant> deletedAt, Set<String> created, GraphChanges pending) {
    if (deletedAt.isEmpty()) {
      return pending;
    }
    Instant now = engine.config.clock().instant();
    Map<String, Relation> current = current(tenant, deletedAt.keySet(), pending);
    Set<String> live = supporting(tenant, current.values(), deletedAt.keySet(), created);
    List<Relation> ended = new ArrayList<>();
    for (Relation r : current.values()) {
      if (r.invalidated() || r.memoryIds().stream().anyMatch(live::contains)) {
        continue;
      }
      Instant at =
          r.memoryIds().stream()
              .map(deletedAt::get)
              .filter(t -> t != null)
              .max(Instant::compareTo)
              .orElse(now);
      ended.add(r.invalidate(at, now));
    }
    return withRelations(pending, ended);
  }

  /**
   * {@code pending} (the graph changes of the memory's new text, possibly none) plus the
   * invalidation of the still-valid relations whose only supporting memory is {@code memoryId} and
   * that {@code pending} leaves alone.
   */
  GraphChanges supersede(String tenant, String memoryId, GraphChanges pending) {
    Instant now = engine.config.clock().instant();
    Set<String> rewritten = new HashSet<>();
    pending.relations().forEach(r -> rewritten.add(r.id()));
    List<Relation> found =
        graph.relationsFromMemories(tenant, List.of(memoryId)).stream()
            .filter(r -> !rewritten.contains(r.id()) && !r.invalidated())
            .toList();
    Set<String> live = supporting(tenant, found, Set.of(memoryId), Set.of());
    List<Relation> ended = new ArrayList<>();
    for (Relation r : found) {
      if (r.memoryIds().stream().noneMatch(live::contains)) {
        ended.add(r.invalidate(now, now));
      }
    }
    return withRelations(pending, ended);
  }

  /**
   * The relations listing these memory ids, in the version {@code pending} writes if it writes one.
   */
  private Map<String, Relation> current(
      String tenant, Set<String> memoryIds, GraphChanges pending) {
    Map<String, Relation> out = new LinkedHashMap<>();
    for (Relation r : graph.relationsFromMemories(tenant, memoryIds)) {
      out.put(r.id(), r);
    }
    for (Relation r : pending.relations()) {
      if (out.containsKey(r.id()) || r.memoryIds().stream().anyMatch(memoryIds::contains)) {
        out.put(r.id(), r);
      }
    }
    return out;
  }

  /**
   * The memory ids named by these relations, other than {@code excluded}, that support them: those
   * of memories that exist, and those in {@code created}.
   */
  private Set<String> supporting(
      String tenant, Collection<Relation> relations, Set<String> excluded, Set<String> created) {
    Set<String> others = new LinkedHashSet<>();
    for (Relation r : relations) {
      for (String id : r.memoryIds()) {
        if (!excluded.contains(id)) {
          others.add(id);
        }
      }
    }
    Set<String> live = new HashSet<>();
    for (String id : others) {
      if (created.contains(id)) {
        live.add(id);
      }
    }
    others.removeAll(live);
    if (!others.isEmpty()) {
      for (StoredMemory m : engine.store.getAll(tenant, others)) {
        live.add(m.id());
      }
    }
    return live;
  }

  /** Of these entities, those with no relation left once the {@code deleted} relations are gone. */
  private Set<String> isolated(String tenant, Set<String> entityIds, Set<String> deleted) {
    Map<Scope, List<String>> byScope = new HashMap<>();
    for (Entity e : graph.entities(tenant, entityIds)) {
      byScope.computeIfAbsent(e.scope(), s -> new ArrayList<>()).add(e.id());
    }
    Set<String> out = new LinkedHashSet<>();
    for (Map.Entry<Scope, List<String>> group : byScope.entrySet()) {
      Set<String> connected = new HashSet<>();
      for (Relation r : graph.relationsOf(tenant, group.getKey(), group.getValue(), TimeView.ALL)) {
        if (!deleted.contains(r.id())) {
          connected.add(r.sourceId());
          connected.add(r.targetId());
        }
      }
      for (String id : group.getValue()) {
        if (!connected.contains(id)) {
          out.add(id);
        }
      }
    }
    return out;
  }

  /**
   * {@code base} with these relation upserts replacing its own of the same id (or added after
   * them).
   */
  private static GraphChanges withRelations(GraphChanges base, List<Relation> upserts) {
    if (upserts.isEmpty()) {
      return base;
    }
    Map<String, Relation> relations = new LinkedHashMap<>();
    base.relations().forEach(r -> relations.put(r.id(), r));
    upserts.forEach(r -> relations.put(r.id(), r));
    return new GraphChanges(
        base.entities(),
        List.copyOf(relations.values()),
        base.deletedRelations(),
        base.deletedEntities());
  }

  private static Relation withMemoryIds(Relation r, List<String> memoryIds) {
    return new Relation(
        r.id(),
        r.sourceId(),
        r.name(),
        r.targetId(),
        r.fact(),
        r.factEmbeddingView(),
        r.validAt(),
        r.invalidAt(),
        r.createdAt(),
        r.expiredAt(),
        r.sourceMessageIds(),
        memoryIds,
        r.scope());
  }
}

package dev.engram.spi;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Where the graph memory (entities and relations, see {@link dev.engram.graph}) is kept. Every call
 * names its tenant, and a store never returns a row of another tenant.
 *
 * <p><b>Scopes.</b> A read's scope matches an entity or relation as {@link Scope#contains} does for
 * memories: every id the scope sets must equal the row's id of the same kind.
 *
 * <p><b>Similarity</b> is the cosine of L2-normalised vectors, computed exactly over the rows that
 * match the scope (a store must not take the top k of a global vector index and filter afterwards:
 * that loses results of small scopes). Ties are broken by id, ascending.
 *
 * <p><b>Time views</b> arrive resolved ({@link TimeView#asOf()} set, or {@code
 * includeInvalidated}); a store keeps exactly the relations {@link TimeView#admits} accepts.
 *
 * <p><b>Threading.</b> Implementations are thread-safe; the engine serialises writes per tenant and
 * scope. The {@link Storage} that exposes a graph store owns it and closes it.
 */
public interface GraphStore {

  /**
   * Applies the changes atomically (all or nothing): entity upserts, relation upserts, relation
   * deletions, then entity deletions with every relation that touches a deleted entity. An entity
   * upsert replaces the whole entity, its {@link Entity#aliases() aliases} included; a deleted
   * entity's aliases go with it.
   *
   * <p>Idempotent: applying the same changes again leaves the same state (upserts replace rows by
   * id, deletions of ids that do not exist are ignored), so an engine may replay changes whose
   * outcome it does not know (see {@link GraphOutbox}).
   */
  void apply(String tenant, GraphChanges changes);

  /** The entities of the tenant with these ids that exist, in no particular order. */
  List<Entity> entities(String tenant, Collection<String> ids);

  /**
   * The entities in the scope known by one of these normalised names: their {@link
   * Entity#normalizedName()} or one of their {@link Entity#aliases()} equals it (exact string
   * equality; callers normalise with {@link dev.engram.graph.Names#normalize}). Each entity at most
   * once, in no particular order.
   */
  List<Entity> entitiesByName(String tenant, Scope scope, Collection<String> normalizedNames);

  /**
   * The {@code k} entities in the scope whose name embedding is most similar to {@code vector},
   * best first.
   */
  List<ScoredEntity> similarEntities(String tenant, Scope scope, float[] vector, int k);

  /**
   * The relations in the scope that the view admits and whose source or target is one of these
   * entities, ordered by id.
   */
  List<Relation> relationsOf(
      String tenant, Scope scope, Collection<String> entityIds, TimeView view);

  /**
   * The first {@code limit} of {@link #relationsOf}, ordered by the cosine of their fact embeddings
   * to {@code vector} ({@link VectorMath#cosine(float[], float[])}), most similar first, ties by
   * id: what a graph search reads of the neighbourhood of the entities it found. The default sorts
   * what {@link #relationsOf} returns; a store may find them without reading the others.
   */
  default List<Relation> nearestRelationsOf(
      String tenant,
      Scope scope,
      Collection<String> entityIds,
      TimeView view,
      float[] vector,
      int limit) {
    return nearest(relationsOf(tenant, scope, entityIds, view), vector, limit);
  }

  /**
   * The first {@code limit} of {@code relations} ordered by the cosine of their fact embeddings to
   * {@code vector}, most similar first, ties by id.
   */
  static List<Relation> nearest(List<Relation> relations, float[] vector, int limit) {
    record Similar(Relation relation, double similarity) {}
    List<Similar> scored = new ArrayList<>(relations.size());
    for (Relation r : relations) {
      scored.add(new Similar(r, VectorMath.cosine(r.factEmbeddingView(), vector)));
    }
    scored.sort(
        Comparator.comparingDouble((Similar s) -> -s.similarity())
            .thenComparing(s -> s.relation().id()));
    return scored.stream().limit(Math.max(limit, 0)).map(Similar::relation).toList();
  }

  /**
   * The {@code k} relations in the scope that the view admits whose fact embedding is most similar
   * to {@code vector}, best first.
   */
  List<ScoredRelation> similarRelations(
      String tenant, Scope scope, float[] vector, int k, TimeView view);

  /**
   * For each of {@code vectors}, the relations {@link #similarRelations} finds for it, as ids and
   * scores: the ranking step hubs asks this for many relations' facts at once. The default asks
   * {@link #similarRelations} once per vector; a store may read the scope once for all.
   */
  default List<List<SearchIndex.Candidate>> similarRelationsEach(
      String tenant, Scope scope, List<float[]> vectors, int k, TimeView view) {
    List<List<SearchIndex.Candidate>> out = new ArrayList<>(vectors.size());
    for (float[] v : vectors) {
      out.add(
          similarRelations(tenant, scope, v, k, view).stream()
              .map(sr -> new SearchIndex.Candidate(sr.relation().id(), sr.score()))
              .toList());
    }
    return out;
  }

  /**
   * The relations of the tenant, in any scope and whatever their validity (every view), whose
   * {@link Relation#memoryIds() memory ids} include at least one of these ids, ordered by id. Used
   * to keep the graph consistent when memories are deleted or updated.
   */
  List<Relation> relationsFromMemories(String tenant, Collection<String> memoryIds);

  /** Deletes every entity and relation in the scope; returns how many entities were deleted. */
  int deleteScope(String tenant, Scope scope);

  /** Deletes every entity and relation of the tenant. */
  void reset(String tenant);
}

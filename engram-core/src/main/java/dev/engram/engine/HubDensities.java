package dev.engram.engine;

import dev.engram.Scope;
import dev.engram.filter.Filters;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Hubness reduction for the dense lists, the ranking step {@link dev.engram.Ranking#hubs}. In a
 * space of sentence embeddings some memories lie near a great many others ("hubs": generic remarks
 * such as "Caroline is passionate about helping people"), and plain similarity puts them near
 * almost every query, where they push out the memories a question is specifically about. So each
 * memory gets a density, the mean similarity of its {@value #NEIGHBOURS} nearest memories in the
 * searched scope, and the dense list is ordered by similarity minus {@value #PENALTY} times
 * density, the local scaling of CSLS (Conneau et al., 2018). The list is read {@value #DEPTH} times
 * deeper than asked so that a memory the penalty lifts can come from behind the cut; its candidates
 * keep their similarities as scores. A scope of fewer than {@value #SMALLEST_SCOPE} memories keeps
 * the plain order; one index search finds it so, and the scope is not looked at again until it
 * changes. The graph's fact-similarity list gets the same treatment ({@link #reorderedRelations}):
 * a relation's density is the mean similarity of its {@value #NEIGHBOURS} nearest relations' facts
 * in the scope, ended ones included ({@link TimeView#ALL}), so that it does not depend on the view
 * searched. The step itself is {@link HubsStep}, which reorders the lists read through {@link
 * RankingPass}.
 *
 * <p>Densities are derived data, held in this process only and computed when a memory or relation
 * first appears in a search of a scope (one dense search each, of the index for a memory's own
 * embedding or its context embedding, of the graph store for a relation's fact; by context, the
 * neighbours' records too, to leave out the memory's own message). A write through this engine
 * drops the densities of the memories and relations it changes in every scope that holds them; once
 * a scope has seen more changes than {@value #MIN_CHANGES} and a quarter of the densities it holds,
 * all of its densities are computed again, as new entries shift old ones' neighbourhoods. Writes
 * made by another process on a shared store (PostgreSQL) are seen only through that refresh or a
 * restart: between them, a density may be older than the scope, which changes an order, never what
 * a search may return. At most {@value #MAX_HELD} densities are held; past that, the cache starts
 * again empty. Thread-safe.
 */
final class HubDensities {
  /** How many of a memory's nearest memories its density averages. */
  static final int NEIGHBOURS = 30;

  /** The share of its density that a memory's similarity to the query loses. */
  static final double PENALTY = 0.5;

  /**
   * How many times deeper than its pool the dense list is read before the penalty reorders and cuts
   * it.
   */
  static final int DEPTH = 2;

  /**
   * A neighbour this similar shares the memory's vector (the memory itself, or the same text
   * twice): not counted.
   */
  static final double SAME_VECTOR = 1 - 1e-6;

  /**
   * Neighbours asked for beyond {@link #NEIGHBOURS}, to make up for those not counted (the same
   * vector, or by context the same message).
   */
  static final int SPARE = 16;

  /**
   * The fewest memories a scope needs for the step to reorder its dense lists. In a smaller scope a
   * memory's nearest memories are nearly the whole scope, so its density would measure how central
   * it is, not whether it is a hub; and a small store's right answer is often near little but the
   * question, where no generic remark crowds it out.
   */
  static final int SMALLEST_SCOPE = NEIGHBOURS + SPARE + 1;

  /** The fewest changes in a scope after which its densities are all computed again. */
  static final int MIN_CHANGES = 16;

  /** The most densities held, over all scopes and fields. */
  static final int MAX_HELD = 500_000;

  /**
   * Which embedding a dense list compares: a memory's own or its context embedding (the index's
   * fields {@link IndexField#TEXT} and {@link IndexField#CONTEXT}), or a relation's fact (in the
   * graph store).
   */
  enum Field {
    OWN(Optional.of(IndexField.TEXT)),
    CONTEXT(Optional.of(IndexField.CONTEXT)),
    RELATION(Optional.empty());

    private final Optional<IndexField> indexed;

    Field(Optional<IndexField> indexed) {
      this.indexed = indexed;
    }

    /** The index field a memory's dense list searches; a relation's is not in the index. */
    IndexField indexField() {
      return indexed.orElseThrow(
          () -> new IllegalArgumentException("relations are searched through relations(...)"));
    }
  }

  private record ScopeKey(String tenant, Scope scope) {}

  /** One scope's densities, by memory or relation id, per field. */
  private static final class ScopeDensities {
    final Map<Field, Map<String, Double>> fields = new EnumMap<>(Field.class);

    /** Changes since the densities were first computed. */
    final AtomicInteger changes = new AtomicInteger();

    /**
     * Bumped by every change, so that a density computed across a change is used once but not kept.
     */
    final AtomicInteger generation = new AtomicInteger();

    /**
     * The fields by which the scope was found too small ({@link #SMALLEST_SCOPE}), until its next
     * change.
     */
    final Set<Field> small = ConcurrentHashMap.newKeySet();

    ScopeDensities() {
      for (Field f : Field.values()) {
        fields.put(f, new ConcurrentHashMap<>());
      }
    }

    Map<String, Double> of(Field field) {
      return fields.get(field);
    }

    /** Removes the id's densities; returns how many were removed. */
    int remove(String id) {
      int removed = 0;
      for (Map<String, Double> m : fields.values()) {
        if (m.remove(id) != null) {
          removed++;
        }
      }
      return removed;
    }

    int size() {
      return fields.values().stream().mapToInt(Map::size).sum();
    }
  }

  /**
   * Computes the densities of the ids a scope does not hold yet; empty if the scope is too small
   * for the step.
   */
  @FunctionalInterface
  private interface Computation {
    Optional<Map<String, Double>> densities(List<String> missing);
  }

  private final Map<ScopeKey, ScopeDensities> scopes = new ConcurrentHashMap<>();
  private final AtomicInteger held = new AtomicInteger();

  /**
   * The {@code k} memories nearest {@code vector} by {@code field} inside {@code q}: with {@code
   * hubs} (the step on) in the order of similarity minus {@link #PENALTY} times density, each
   * candidate's score staying its similarity; without, the index's order. Memories whose densities
   * are unknown are read through {@code records} (which the search reuses) and their densities
   * computed.
   */
  List<Candidate> dense(
      SearchIndex index,
      IndexQuery q,
      Field field,
      float[] vector,
      int k,
      SearchRecords records,
      boolean hubs) {
    if (!hubs) {
      return nearest(index, q, field, vector, k);
    }
    return reordered(index, q, field, nearest(index, q, field, vector, k * DEPTH), k, records);
  }

  /**
   * The first {@code k} of {@code wide} (the memories nearest the query by {@code field} inside
   * {@code q}, read {@link #DEPTH} times deeper than {@code k}) in the order of similarity minus
   * {@link #PENALTY} times density, each keeping its similarity as its score; the order of {@code
   * wide} in a scope too small for the step.
   */
  List<Candidate> reordered(
      SearchIndex index,
      IndexQuery q,
      Field field,
      List<Candidate> wide,
      int k,
      SearchRecords records) {
    if (wide.isEmpty()) {
      return wide;
    }
    IndexQuery wholeScope = new IndexQuery(q.tenant(), q.scope(), Filters.all(), false, q.today());
    Map<String, Double> density =
        densities(
            new ScopeKey(q.tenant(), q.scope()),
            field,
            wide.stream().map(Candidate::id).toList(),
            missing -> densities(index, wholeScope, field, records.get(missing), records));
    return reorder(wide, k, Candidate::score, Candidate::id, density);
  }

  /**
   * The densities of {@code memories} by {@code field} in the scope: one memory's neighbours asked
   * of the index first, which finds a scope too small for the step (then empty) with one look, and
   * the others' in one call ({@link SearchIndex#denseEach}).
   */
  private static Optional<Map<String, Double>> densities(
      SearchIndex index,
      IndexQuery wholeScope,
      Field field,
      List<StoredMemory> memories,
      SearchRecords records) {
    Map<String, Double> computed = new HashMap<>();
    List<StoredMemory> embedded = new ArrayList<>();
    List<float[]> vectors = new ArrayList<>();
    for (StoredMemory m : memories) {
      float[] v = field.indexField().embeddingView(m);
      if (v.length == 0) {
        computed.put(m.id(), 0.0);
      } else {
        embedded.add(m);
        vectors.add(v);
      }
    }
    if (embedded.isEmpty()) {
      return Optional.of(computed);
    }
    // one look first: in a scope too small for the step it finds so for every memory in it
    List<Candidate> first =
        index.dense(wholeScope, field.indexField(), vectors.get(0), SMALLEST_SCOPE);
    if (first.size() < SMALLEST_SCOPE) {
      return Optional.empty();
    }
    List<List<Candidate>> nearest = new ArrayList<>();
    nearest.add(first);
    nearest.addAll(
        index.denseEach(
            wholeScope, field.indexField(), vectors.subList(1, vectors.size()), SMALLEST_SCOPE));
    for (int i = 0; i < embedded.size(); i++) {
      OptionalDouble d = density(field, embedded.get(i), nearest.get(i), records);
      if (d.isEmpty()) {
        return Optional.empty();
      }
      computed.put(embedded.get(i).id(), d.getAsDouble());
    }
    return Optional.of(computed);
  }

  /**
   * The {@code k} relations of the scope whose facts are nearest {@code vector} among those {@code
   * view} shows: with {@code hubs} in the order of similarity minus {@link #PENALTY} times density,
   * each keeping its similarity as its score; without, the graph store's order.
   */
  List<ScoredRelation> relations(
      GraphStore graph,
      String tenant,
      Scope scope,
      TimeView view,
      float[] vector,
      int k,
      boolean hubs) {
    if (!hubs) {
      return graph.similarRelations(tenant, scope, vector, k, view);
    }
    return reorderedRelations(
        graph, tenant, scope, graph.similarRelations(tenant, scope, vector, k * DEPTH, view), k);
  }

  /**
   * The first {@code k} of {@code wide} (the relations of the scope nearest the query, read {@link
   * #DEPTH} times deeper than {@code k}) in the order of similarity minus {@link #PENALTY} times
   * density, each keeping its similarity as its score; the order of {@code wide} in a scope too
   * small for the step.
   */
  List<ScoredRelation> reorderedRelations(
      GraphStore graph, String tenant, Scope scope, List<ScoredRelation> wide, int k) {
    if (wide.isEmpty()) {
      return wide;
    }
    Map<String, Relation> byId = new HashMap<>();
    wide.forEach(sr -> byId.put(sr.relation().id(), sr.relation()));
    Map<String, Double> density =
        densities(
            new ScopeKey(tenant, scope),
            Field.RELATION,
            wide.stream().map(sr -> sr.relation().id()).toList(),
            missing -> relationDensities(graph, tenant, scope, missing, byId));
    return reorder(wide, k, ScoredRelation::score, sr -> sr.relation().id(), density);
  }

  /**
   * The densities of the relations {@code missing} (of {@code byId}) in the scope, as the memories'
   * are found ({@link #densities(SearchIndex, IndexQuery, Field, List, SearchRecords)}): one
   * relation's neighbours asked of the graph store first, which finds a scope too small for the
   * step (then empty) with one look, and the others' in one call ({@link
   * GraphStore#similarRelationsEach}).
   */
  private static Optional<Map<String, Double>> relationDensities(
      GraphStore graph,
      String tenant,
      Scope scope,
      List<String> missing,
      Map<String, Relation> byId) {
    List<List<Candidate>> nearest = new ArrayList<>();
    nearest.add(
        graph
            .similarRelations(
                tenant,
                scope,
                byId.get(missing.get(0)).factEmbeddingView(),
                SMALLEST_SCOPE,
                TimeView.ALL)
            .stream()
            .map(n -> new Candidate(n.relation().id(), n.score()))
            .toList());
    if (nearest.get(0).size() < SMALLEST_SCOPE) {
      return Optional.empty();
    }
    List<float[]> others =
        missing.subList(1, missing.size()).stream()
            .map(id -> byId.get(id).factEmbeddingView())
            .toList();
    if (!others.isEmpty()) {
      nearest.addAll(
          graph.similarRelationsEach(tenant, scope, others, SMALLEST_SCOPE, TimeView.ALL));
    }
    Map<String, Double> computed = new HashMap<>();
    for (int i = 0; i < missing.size(); i++) {
      OptionalDouble d = meanOfNearest(missing.get(i), nearest.get(i), Set.of());
      if (d.isEmpty()) {
        return Optional.empty();
      }
      computed.put(missing.get(i), d.getAsDouble());
    }
    return Optional.of(computed);
  }

  /**
   * The first {@code k} of {@code wide} by score minus {@link #PENALTY} times density (0 for an
   * entry without one), entries of equal standing in the order of {@code wide}; in the given order
   * if there are no densities (a scope too small for the step).
   */
  static <T> List<T> reorder(
      List<T> wide,
      int k,
      ToDoubleFunction<T> score,
      Function<T, String> id,
      Map<String, Double> density) {
    if (density.isEmpty()) {
      return List.copyOf(wide.subList(0, Math.min(k, wide.size())));
    }
    List<Penalised<T>> out = new ArrayList<>(wide.size());
    for (T t : wide) {
      Double d = density.get(id.apply(t));
      out.add(new Penalised<>(t, -(score.applyAsDouble(t) - PENALTY * (d == null ? 0.0 : d))));
    }
    out.sort(Comparator.comparingDouble(Penalised::order)); // stable: equal keys keep wide's order
    List<T> first = new ArrayList<>(Math.min(k, out.size()));
    for (int i = 0; i < Math.min(k, out.size()); i++) {
      first.add(out.get(i).item());
    }
    return List.copyOf(first);
  }

  /**
   * An entry of a list being reordered, with its sort key (the negated score minus the density's
   * penalty) computed once, not at each comparison.
   */
  private record Penalised<T>(T item, double order) {}

  /**
   * The densities of {@code ids} by {@code field} in the scope: those held, and the rest computed
   * (and held unless a change came in between); empty if the scope is too small for the step.
   */
  private Map<String, Double> densities(
      ScopeKey key, Field field, List<String> ids, Computation computation) {
    ScopeDensities scope = scopes.computeIfAbsent(key, k -> new ScopeDensities());
    if (scope.small.contains(field)) {
      return Map.of(); // too small for the step: no density, the plain order
    }
    Map<String, Double> known = scope.of(field);
    Map<String, Double> out = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String id : ids) {
      Double d = known.get(id);
      if (d != null) {
        out.put(id, d);
      } else {
        missing.add(id);
      }
    }
    if (missing.isEmpty()) {
      return out;
    }
    int generation = scope.generation.get();
    Optional<Map<String, Double>> computed = computation.densities(missing);
    if (computed.isEmpty()) {
      if (scope.generation.get() == generation) {
        scope.small.add(field);
      }
      return Map.of();
    }
    out.putAll(computed.get());
    if (scope.generation.get() == generation) {
      if (held.get() + computed.get().size() > MAX_HELD) {
        clear();
      } else {
        computed
            .get()
            .forEach(
                (id, d) -> {
                  if (known.put(id, d) == null) {
                    held.incrementAndGet();
                  }
                });
      }
    }
    return out;
  }

  /**
   * The mean similarity of the memory's {@link #NEIGHBOURS} nearest memories by {@code field} in
   * the scope, from {@code near} (its {@link #SMALLEST_SCOPE} nearest there); empty in a scope of
   * fewer than {@link #SMALLEST_SCOPE} memories. A neighbour with the memory's very vector is not
   * counted, nor, by context, a memory of one of its source messages: its context embedding holds
   * the same context (only the memory's own text differs), so a message that yielded many memories
   * would make each of them look like a hub. Those neighbours' records are read through {@code
   * records}, which the search shares.
   */
  private static OptionalDouble density(
      Field field, StoredMemory m, List<Candidate> near, SearchRecords records) {
    if (near.size() < SMALLEST_SCOPE) {
      return OptionalDouble.empty();
    }
    Set<String> sameMessage = new HashSet<>();
    if (field == Field.CONTEXT && !m.item().sourceIds().isEmpty()) {
      for (StoredMemory o : records.get(near.stream().map(Candidate::id).toList())) {
        if (o.item().sourceIds().stream().anyMatch(m.item().sourceIds()::contains)) {
          sameMessage.add(o.id());
        }
      }
    }
    return meanOfNearest(m.id(), near, sameMessage);
  }

  /**
   * The index's {@code k} memories nearest {@code vector} by a memory field, {@link Field#OWN} or
   * CONTEXT.
   */
  static List<Candidate> nearest(
      SearchIndex index, IndexQuery q, Field field, float[] vector, int k) {
    return index.dense(q, field.indexField(), vector, k);
  }

  /**
   * The mean score of the first {@link #NEIGHBOURS} of {@code near} (nearest first), leaving out
   * {@code self}, any neighbour with the very same vector and those in {@code excluded}; empty if
   * {@code near} holds fewer than {@link #SMALLEST_SCOPE} entries (the scope is too small for the
   * step).
   */
  static OptionalDouble meanOfNearest(String self, List<Candidate> near, Set<String> excluded) {
    if (near.size() < SMALLEST_SCOPE) {
      return OptionalDouble.empty();
    }
    double sum = 0;
    int n = 0;
    for (Candidate c : near) {
      if (c.id().equals(self) || c.score() >= SAME_VECTOR || excluded.contains(c.id())) {
        continue;
      }
      sum += c.score();
      if (++n == NEIGHBOURS) {
        break;
      }
    }
    return OptionalDouble.of(n == 0 ? 0 : sum / n);
  }

  /**
   * Reports memories a write changed (added, updated or deleted, each in its scope): their
   * densities are dropped in every scope that holds them, and a scope that has seen more than
   * {@link #MIN_CHANGES} changes and a quarter of its densities starts again empty.
   */
  void changed(List<StoredMemory> memories) {
    if (scopes.isEmpty()) {
      return;
    }
    for (StoredMemory m : memories) {
      for (Scope s : covering(m.item().scope())) {
        changed(new ScopeKey(m.tenant(), s), m.id());
      }
    }
  }

  /**
   * Reports relations a write added or updated, each in its scope: their densities are dropped as
   * for {@link #changed(List)}. (A deleted relation needs no report: no search returns it again,
   * and its neighbours' densities follow with the scope's refresh.)
   */
  void changedRelations(String tenant, List<Relation> relations) {
    if (scopes.isEmpty()) {
      return;
    }
    for (Relation r : relations) {
      for (Scope s : covering(r.scope())) {
        changed(new ScopeKey(tenant, s), r.id());
      }
    }
  }

  /** Forgets a tenant's densities (its data was deleted). */
  void forget(String tenant) {
    for (ScopeKey key : List.copyOf(scopes.keySet())) {
      if (key.tenant().equals(tenant)) {
        drop(key);
      }
    }
  }

  private void changed(ScopeKey key, String id) {
    ScopeDensities d = scopes.get(key);
    if (d == null) {
      return;
    }
    d.generation.incrementAndGet();
    d.small.clear(); // it may have grown
    held.addAndGet(-d.remove(id));
    if (d.changes.incrementAndGet() > Math.max(MIN_CHANGES, d.size() / 4)) {
      drop(key);
    }
  }

  private void drop(ScopeKey key) {
    ScopeDensities d = scopes.remove(key);
    if (d != null) {
      d.generation.incrementAndGet();
      held.addAndGet(-d.size());
    }
  }

  /** Forgets every density (the index was rebuilt or repaired). */
  void clear() {
    for (ScopeKey key : List.copyOf(scopes.keySet())) {
      drop(key);
    }
  }

  /** The densities held, over all scopes and fields. */
  int held() {
    return held.get();
  }

  /**
   * Every scope that a memory of {@code memory}'s scope lies in: those setting a non-empty subset
   * of its ids.
   */
  static List<Scope> covering(Scope memory) {
    String u = memory.userId().orElse(null);
    String a = memory.agentId().orElse(null);
    String r = memory.runId().orElse(null);
    List<Scope> out = new ArrayList<>(7);
    for (int bits = 1; bits < 8; bits++) {
      String su = (bits & 1) != 0 ? u : null;
      String sa = (bits & 2) != 0 ? a : null;
      String sr = (bits & 4) != 0 ? r : null;
      if (((bits & 1) != 0 && u == null)
          || ((bits & 2) != 0 && a == null)
          || ((bits & 4) != 0 && r == null)) {
        continue;
      }
      out.add(Scope.of(su, sa, sr));
    }
    return out;
  }
}

package dev.engram.engine;

import dev.engram.Scope;
import dev.engram.filter.Filters;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hubness reduction for the dense lists, the ranking step {@link dev.engram.Ranking#hubs}. In a space of sentence
 * embeddings some memories lie near a great many others ("hubs": generic remarks such as "Caroline is passionate
 * about helping people"), and plain similarity puts them near almost every query, where they push out the memories
 * a question is specifically about. So each memory gets a density, the mean similarity of its {@value #NEIGHBOURS}
 * nearest memories in the searched scope, and the dense list is ordered by similarity minus {@value #PENALTY} times
 * density, the local scaling of CSLS (Conneau et al., 2018). The list is read {@value #DEPTH} times deeper than asked
 * so that a memory the penalty lifts can come from behind the cut; its candidates keep their similarities as scores.
 * A scope of fewer than {@value #SMALLEST_SCOPE} memories keeps the plain order; one index search finds it so, and
 * the scope is not looked at again until it changes.
 *
 * <p>Densities are derived data, held in this process only and computed when a memory first appears in a search of
 * a scope (one dense search of the index each, for its own embedding or its context embedding; by context, the
 * neighbours' records too, to leave out the memory's own message). A write through this
 * engine drops the densities of the memories it changes in every scope that holds them; once a scope has seen more
 * changes than {@value #MIN_CHANGES} and a quarter of the densities it holds, all of its densities are computed
 * again, as new memories shift old ones' neighbourhoods. Writes made by another process on a shared store
 * (PostgreSQL) are seen only through that refresh or a restart: between them, a density may be older than the
 * scope, which changes an order, never what a search may return. At most {@value #MAX_HELD} densities are held;
 * past that, the cache starts again empty. Thread-safe.
 */
final class HubDensities {
  /** How many of a memory's nearest memories its density averages. */
  static final int NEIGHBOURS = 30;
  /** The share of its density that a memory's similarity to the query loses. */
  static final double PENALTY = 0.5;
  /** How many times deeper than its pool the dense list is read before the penalty reorders and cuts it. */
  static final int DEPTH = 2;
  /** A neighbour this similar shares the memory's vector (the memory itself, or the same text twice): not counted. */
  static final double SAME_VECTOR = 1 - 1e-6;
  /**
   * Neighbours asked for beyond {@link #NEIGHBOURS}, to make up for those not counted (the same vector, or by context
   * the same message).
   */
  static final int SPARE = 16;
  /**
   * The fewest memories a scope needs for the step to reorder its dense lists. In a smaller scope a memory's nearest
   * memories are nearly the whole scope, so its density would measure how central it is, not whether it is a hub;
   * and a small store's right answer is often near little but the question, where no generic remark crowds it out.
   */
  static final int SMALLEST_SCOPE = NEIGHBOURS + SPARE + 1;
  /** The fewest changes in a scope after which its densities are all computed again. */
  static final int MIN_CHANGES = 16;
  /** The most densities held, over all scopes and both fields. */
  static final int MAX_HELD = 500_000;

  /** Which embedding of a memory a dense list compares. */
  enum Field { OWN, CONTEXT }

  private record ScopeKey(String tenant, Scope scope) {}

  /** One scope's densities, by memory id, per field. */
  private static final class ScopeDensities {
    final Map<String, Double> own = new ConcurrentHashMap<>();
    final Map<String, Double> context = new ConcurrentHashMap<>();
    /** Changes since the densities were first computed. */
    final AtomicInteger changes = new AtomicInteger();
    /** Bumped by every change, so that a density computed across a change is used once but not kept. */
    final AtomicInteger generation = new AtomicInteger();
    /** The fields by which the scope was found too small ({@link #SMALLEST_SCOPE}), until its next change. */
    final Set<Field> small = ConcurrentHashMap.newKeySet();

    Map<String, Double> of(Field field) {
      return field == Field.OWN ? own : context;
    }

    int size() {
      return own.size() + context.size();
    }
  }

  private final Map<ScopeKey, ScopeDensities> scopes = new ConcurrentHashMap<>();
  private final AtomicInteger held = new AtomicInteger();

  /**
   * The {@code k} memories nearest {@code vector} by {@code field} inside {@code q}, in the order of similarity
   * minus {@link #PENALTY} times density; each candidate's score stays its similarity. Memories whose densities are
   * unknown are read through {@code records} (which the search reuses) and their densities computed.
   */
  List<Candidate> dense(SearchIndex index, IndexQuery q, Field field, float[] vector, int k, SearchRecords records) {
    List<Candidate> wide = field == Field.OWN
        ? index.dense(q, vector, k * DEPTH)
        : index.contextDense(q, vector, k * DEPTH);
    if (wide.isEmpty()) {
      return wide;
    }
    Map<String, Double> density = densities(index, q, field, wide, records);
    if (density.isEmpty()) { // a scope too small for the step
      return List.copyOf(wide.subList(0, Math.min(k, wide.size())));
    }
    List<Candidate> out = new ArrayList<>(wide);
    out.sort(Comparator.comparingDouble(c -> -(c.score() - PENALTY * density.getOrDefault(c.id(), 0.0))));
    return List.copyOf(out.subList(0, Math.min(k, out.size())));
  }

  /** The densities of the candidates by {@code field} in {@code q}'s scope: those held, and the rest computed. */
  private Map<String, Double> densities(SearchIndex index, IndexQuery q, Field field, List<Candidate> candidates,
                                        SearchRecords records) {
    ScopeDensities scope = scopes.computeIfAbsent(new ScopeKey(q.tenant(), q.scope()), k -> new ScopeDensities());
    if (scope.small.contains(field)) {
      return Map.of(); // too small for the step: no density, the plain order
    }
    Map<String, Double> known = scope.of(field);
    Map<String, Double> out = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (Candidate c : candidates) {
      Double d = known.get(c.id());
      if (d != null) {
        out.put(c.id(), d);
      } else {
        missing.add(c.id());
      }
    }
    if (missing.isEmpty()) {
      return out;
    }
    int generation = scope.generation.get();
    IndexQuery wholeScope = new IndexQuery(q.tenant(), q.scope(), Filters.all(), false, q.today());
    Map<String, Double> computed = new HashMap<>();
    for (StoredMemory m : records.get(missing)) {
      OptionalDouble density = density(index, wholeScope, field, m, records);
      if (density.isEmpty()) { // one look finds the scope too small for every memory in it
        if (scope.generation.get() == generation) {
          scope.small.add(field);
        }
        return Map.of();
      }
      computed.put(m.id(), density.getAsDouble());
    }
    out.putAll(computed);
    if (scope.generation.get() == generation) {
      if (held.get() + computed.size() > MAX_HELD) {
        clear();
      } else {
        computed.forEach((id, d) -> {
          if (known.put(id, d) == null) {
            held.incrementAndGet();
          }
        });
      }
    }
    return out;
  }

  /**
   * The mean similarity of the memory's {@link #NEIGHBOURS} nearest memories by {@code field} in the scope (0 for a
   * memory without that embedding); empty in a scope of fewer than {@link #SMALLEST_SCOPE} memories. A neighbour
   * with the memory's very vector is not counted, nor, by context, a memory of one of its source messages: its
   * context embedding holds the same context (only the memory's own text differs), so a message that yielded many
   * memories would make each of them look like a hub.
   * Those neighbours' records are read through {@code records}, which the search shares.
   */
  private static OptionalDouble density(SearchIndex index, IndexQuery wholeScope, Field field, StoredMemory m,
                                        SearchRecords records) {
    float[] v = field == Field.OWN ? m.embeddingView() : m.contextEmbeddingView();
    if (v.length == 0) {
      return OptionalDouble.of(0);
    }
    List<Candidate> near = field == Field.OWN
        ? index.dense(wholeScope, v, SMALLEST_SCOPE)
        : index.contextDense(wholeScope, v, SMALLEST_SCOPE);
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
    double sum = 0;
    int n = 0;
    for (Candidate c : near) {
      if (c.id().equals(m.id()) || c.score() >= SAME_VECTOR || sameMessage.contains(c.id())) {
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
   * Reports memories a write changed (added, updated or deleted, each in its scope): their densities are dropped in
   * every scope that holds them, and a scope that has seen more than {@link #MIN_CHANGES} changes and a quarter of
   * its densities starts again empty.
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
    int before = d.size();
    d.own.remove(id);
    d.context.remove(id);
    held.addAndGet(d.size() - before);
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

  /** The densities held, over all scopes and both fields. */
  int held() {
    return held.get();
  }

  /** Every scope that a memory of {@code memory}'s scope lies in: those setting a non-empty subset of its ids. */
  static List<Scope> covering(Scope memory) {
    String u = memory.userId().orElse(null);
    String a = memory.agentId().orElse(null);
    String r = memory.runId().orElse(null);
    List<Scope> out = new ArrayList<>(7);
    for (int bits = 1; bits < 8; bits++) {
      String su = (bits & 1) != 0 ? u : null;
      String sa = (bits & 2) != 0 ? a : null;
      String sr = (bits & 4) != 0 ? r : null;
      if (((bits & 1) != 0 && u == null) || ((bits & 2) != 0 && a == null) || ((bits & 4) != 0 && r == null)) {
        continue;
      }
      out.add(Scope.of(su, sa, sr));
    }
    return out;
  }
}

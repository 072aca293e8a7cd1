package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.filter.Filters;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.GraphStore;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.InMemoryStorage;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link HubDensities} on the in-memory reference backend, with vectors set by hand: how a memory's
 * density by context counts its neighbours.
 */
class HubDensitiesTest {
  private static final int DIMENSION = 70;
  private static final Scope ALICE = Scope.user("alice");
  private static final IndexQuery Q =
      new IndexQuery("t", ALICE, Filters.all(), false, LocalDate.parse("2024-06-01"));
  private final InMemoryStorage storage = InMemoryStorage.create();

  /** A unit vector: {@code parts} holds axis, weight pairs. */
  private static float[] vector(double... parts) {
    float[] v = new float[DIMENSION];
    double norm = 0;
    for (int i = 0; i < parts.length; i += 2) {
      v[(int) parts[i]] = (float) parts[i + 1];
      norm += parts[i + 1] * parts[i + 1];
    }
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return v;
  }

  private void store(String id, String sourceId, float[] context) {
    Instant t = Instant.parse("2024-05-01T10:00:00Z");
    MemoryItem item =
        new MemoryItem(
            id,
            "memory " + id,
            id,
            Map.of(),
            "alice",
            null,
            null,
            null,
            null,
            t,
            t,
            null,
            List.of(sourceId),
            null);
    StoredMemory m = new StoredMemory("t", item, context, "what was said before " + id, context);
    long seq =
        storage
            .records()
            .apply(
                ChangeSet.of("t", List.of(MemoryChange.add(m, null, null, ChangePipelines.RAW))));
    storage.index().apply(List.of(new IndexOp.Upsert(m)), seq, storage.records().generation());
  }

  /**
   * One message yielded the memory "x" and four more, whose context embeddings hold the same
   * context (0.97 to x's); "y" comes from a message of its own. The query is a little nearer x
   * (0.80) than y (0.79), and x and y are each other's nearest memory of another message (0.63); 46
   * unrelated memories fill the scope. If x's own message counted, its density (0.15) would put y
   * first; it does not, so x's density is y's alone (0.02) and x stays first.
   */
  @Test
  void theMemoriesOfItsOwnMessageDoNotMakeAMemoryAHubByContext() {
    store("x", "m1", vector(0, 0.8, 1, 0.6));
    for (int i = 0; i < 4; i++) {
      store("sibling" + i, "m1", vector(0, 0.8, 1, 0.55, 10 + i, 0.24));
    }
    store("y", "m2", vector(0, 0.79, 2, 0.613));
    for (int j = 0; j < 46; j++) {
      store("other" + j, "o" + j, vector(20 + j, 1));
    }
    float[] query = vector(0, 1);
    List<String> plain = ids(storage.index().dense(Q, IndexField.CONTEXT, query, 10));
    assertThat(plain.indexOf("x")).isLessThan(plain.indexOf("y"));
    List<String> ranked =
        ids(
            new HubDensities()
                .dense(
                    storage.index(),
                    Q,
                    HubDensities.Field.CONTEXT,
                    query,
                    10,
                    new SearchRecords(storage.records(), "t"),
                    true));
    assertThat(ranked).contains("x", "y");
    assertThat(ranked.indexOf("x")).isLessThan(ranked.indexOf("y"));
  }

  @Test
  void aChangedMemoryLosesItsDensityAndARemovedTenantLosesThemAll() {
    storeAlike(0, 50);
    HubDensities densities = new HubDensities();
    List<String> found =
        ids(
            densities.dense(
                storage.index(),
                Q,
                HubDensities.Field.OWN,
                vector(0, 1),
                10,
                new SearchRecords(storage.records(), "t"),
                true));
    assertThat(found).hasSize(10);
    assertThat(densities.held()).isEqualTo(20); // the list read twice as deep
    // a change to a memory the scope holds drops its density; the same id in another tenant or
    // scope drops nothing
    StoredMemory first = storage.records().get("t", found.get(0)).orElseThrow();
    densities.changed(List.of(first));
    assertThat(densities.held()).isEqualTo(19);
    StoredMemory second = storage.records().get("t", found.get(1)).orElseThrow();
    densities.changed(
        List.of(
            second,
            new StoredMemory("other", second.item(), second.embedding()),
            new StoredMemory("t", ofBob(second.item()), second.embedding())));
    assertThat(densities.held()).isEqualTo(18);
    densities.forget("other");
    assertThat(densities.held()).isEqualTo(18);
    densities.forget("t");
    assertThat(densities.held()).isZero();
  }

  @Test
  void aSmallScopeIsLookedAtOnceAndAgainAfterItGrows() {
    storeAlike(0, 40);
    HubDensities densities = new HubDensities();
    float[] query = vector(0, 1, 1, 0.9);
    List<String> plain = ids(storage.index().dense(Q, IndexField.TEXT, query, 10));
    int[] searches = new int[1];
    SearchIndex counted =
        (SearchIndex)
            Proxy.newProxyInstance(
                SearchIndex.class.getClassLoader(),
                new Class<?>[] {SearchIndex.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("dense") || method.getName().equals("denseEach")) {
                    searches[0]++;
                  }
                  return method.invoke(storage.index(), args);
                });
    assertThat(
            ids(
                densities.dense(
                    counted,
                    Q,
                    HubDensities.Field.OWN,
                    query,
                    10,
                    new SearchRecords(storage.records(), "t"),
                    true)))
        .isEqualTo(plain);
    assertThat(searches[0])
        .isEqualTo(2); // the list, and one look at the memories' neighbours: too few
    assertThat(densities.held()).isZero(); // 40 memories, and no density kept
    densities.dense(
        counted,
        Q,
        HubDensities.Field.OWN,
        query,
        10,
        new SearchRecords(storage.records(), "t"),
        true);
    assertThat(searches[0]).isEqualTo(3); // the scope is not looked at again until it changes
    storeAlike(40, 50);
    for (int j = 40; j < 50; j++) {
      densities.changed(List.of(storage.records().get("t", "m" + j).orElseThrow()));
    }
    densities.dense(
        storage.index(),
        Q,
        HubDensities.Field.OWN,
        query,
        10,
        new SearchRecords(storage.records(), "t"),
        true);
    assertThat(densities.held()).isEqualTo(20);
  }

  /** The same memory, of user bob. */
  private static MemoryItem ofBob(MemoryItem i) {
    return new MemoryItem(
        i.id(),
        i.text(),
        i.hash(),
        i.metadata(),
        "bob",
        null,
        null,
        null,
        null,
        i.createdAt(),
        i.updatedAt(),
        null,
        i.sourceIds(),
        null);
  }

  /**
   * Memories m{from}..m{to - 1}, each on an axis of its own and a shared one (0.45 between any
   * two).
   */
  private void storeAlike(int from, int to) {
    for (int j = from; j < to; j++) {
      store("m" + j, "s" + j, vector(j, 1, 60, 0.5));
    }
  }

  private static List<String> ids(List<Candidate> candidates) {
    List<String> out = new ArrayList<>();
    candidates.forEach(c -> out.add(c.id()));
    return out;
  }

  /** A relation of Alice's scope (or {@code scope}'s) whose fact embedding is {@code v}. */
  private static Relation relation(String id, float[] v, Scope scope) {
    return new Relation(
        id,
        "e1",
        "related_to",
        "e2",
        "fact " + id,
        v,
        null,
        null,
        Instant.parse("2024-05-01T10:00:00Z"),
        null,
        List.of("s" + id),
        List.of(),
        scope);
  }

  /**
   * A graph store (a proxy over a list) whose only answer is the one the step asks for, the
   * relations nearest a vector by exact cosine (and the interface's defaults built on it, such as
   * {@link GraphStore#similarRelationsEach}); {@code views} records the views it was asked with.
   */
  private static GraphStore graphOf(List<Relation> relations, List<TimeView> views) {
    return (GraphStore)
        Proxy.newProxyInstance(
            GraphStore.class.getClassLoader(),
            new Class<?>[] {GraphStore.class},
            (proxy, method, args) -> {
              if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
              }
              if (!method.getName().equals("similarRelations")) {
                throw new UnsupportedOperationException(method.getName());
              }
              float[] q = (float[]) args[2];
              views.add((TimeView) args[4]);
              return relations.stream()
                  .map(r -> new ScoredRelation(r, Relevance.cosine(r.factEmbeddingView(), q)))
                  .sorted(Comparator.comparingDouble(sr -> -sr.score()))
                  .limit((int) args[3])
                  .toList();
            });
  }

  /**
   * "hub" (0.95 to the query), "specific" (0.71), and {@code crowd} relations near the hub (0.63),
   * not "specific".
   */
  private static List<Relation> hubSpecificAndCrowd(int crowd) {
    List<Relation> relations = new ArrayList<>();
    relations.add(relation("hub", vector(0, 2, 1, 1), ALICE));
    relations.add(relation("specific", vector(1, 1), ALICE));
    for (int i = 0; i < crowd; i++) {
      relations.add(relation("crowd" + i, vector(0, 1, 2 + i, 1), ALICE));
    }
    return relations;
  }

  /**
   * The graph's fact list gets the step as memories do: "hub" is nearest the query (0.95) but 45
   * relations lie near it (0.63) and none near "specific" (0.71), so "specific" comes first; the
   * scores stay the similarities, and the densities are computed over every relation, ended or not,
   * whatever view the search asked for.
   */
  @Test
  void aRelationNearEveryOtherGivesWayToTheOneAboutTheQuery() {
    List<Relation> relations = hubSpecificAndCrowd(45);
    List<TimeView> views = new ArrayList<>();
    GraphStore graph = graphOf(relations, views);
    float[] query = vector(0, 1, 1, 1);
    assertThat(graph.similarRelations("t", ALICE, query, 2, TimeView.CURRENT))
        .extracting(sr -> sr.relation().id())
        .containsExactly("hub", "specific");
    assertThat(new HubDensities().relations(graph, "t", ALICE, TimeView.CURRENT, query, 2, false))
        .extracting(sr -> sr.relation().id())
        .containsExactly("hub", "specific"); // the step off: the store's order
    views.clear();
    List<ScoredRelation> ranked =
        new HubDensities().relations(graph, "t", ALICE, TimeView.CURRENT, query, 2, true);
    assertThat(ranked).extracting(sr -> sr.relation().id()).containsExactly("specific", "hub");
    assertThat(ranked.get(0).score())
        .isCloseTo(Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-6));
    assertThat(views.get(0)).isEqualTo(TimeView.CURRENT); // the list itself, as asked
    assertThat(views.subList(1, views.size())).containsOnly(TimeView.ALL); // the neighbourhoods
  }

  @Test
  void aChangedRelationLosesItsDensityInItsScopeOnly() {
    List<Relation> relations = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      relations.add(relation("r" + i, vector(0, 1, 1 + i, 1), ALICE));
    }
    HubDensities densities = new HubDensities();
    List<ScoredRelation> found =
        densities.relations(
            graphOf(relations, new ArrayList<>()),
            "t",
            ALICE,
            TimeView.CURRENT,
            vector(0, 1),
            10,
            true);
    assertThat(found).hasSize(10);
    assertThat(densities.held()).isEqualTo(20); // the list read twice as deep
    Relation first = found.get(0).relation();
    densities.changedRelations("other", List.of(first));
    densities.changedRelations(
        "t", List.of(relation(first.id(), first.factEmbeddingView(), Scope.user("bob"))));
    assertThat(densities.held()).isEqualTo(20);
    densities.changedRelations("t", List.of(first));
    assertThat(densities.held()).isEqualTo(19);
    densities.forget("t");
    assertThat(densities.held()).isZero();
  }

  @Test
  void aSmallGraphKeepsTheOrderOfSimilarity() {
    List<Relation> relations = hubSpecificAndCrowd(43); // 45 relations: too few
    HubDensities densities = new HubDensities();
    assertThat(
            densities.relations(
                graphOf(relations, new ArrayList<>()),
                "t",
                ALICE,
                TimeView.CURRENT,
                vector(0, 1, 1, 1),
                2,
                true))
        .extracting(sr -> sr.relation().id())
        .containsExactly("hub", "specific");
    assertThat(densities.held()).isZero();
  }

  @Test
  void aListIsOrderedByScoreLessThePenaltyAndEqualStandingKeepsItsOrder() {
    List<Candidate> wide =
        List.of(
            new Candidate("a", 0.75),
            new Candidate("b", 0.6875),
            new Candidate("c", 0.625),
            new Candidate("d", 0.875),
            new Candidate("e", 0.5));
    // exact in binary: a 0.75 - 0.5 * 0.25 = 0.625; b 0.6875 - 0.5 * 0.125 = 0.625 (a tie: a
    // first, as listed); c 0.625, no density (a tie too); d 0.875 - 0.5 * 1 = 0.375; e 0.5 - 0
    Map<String, Double> density = Map.of("a", 0.25, "b", 0.125, "d", 1.0, "e", 0.0);

    assertThat(HubDensities.reorder(wide, 4, Candidate::score, Candidate::id, density))
        .extracting(Candidate::id)
        .containsExactly("a", "b", "c", "e");
    assertThat(HubDensities.reorder(wide, 2, Candidate::score, Candidate::id, Map.of()))
        .extracting(Candidate::id)
        .containsExactly("a", "b");
    // the same list reversed: the ties come in the reversed order
    List<Candidate> reversed = new ArrayList<>(wide);
    Collections.reverse(reversed);
    assertThat(HubDensities.reorder(reversed, 5, Candidate::score, Candidate::id, density))
        .extracting(Candidate::id)
        .containsExactly("c", "b", "a", "e", "d");
  }
}

package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.VectorMath;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@link SearchIndex} contract: dense and keyword search restricted inside the index to the
 * tenant, the scope, the filter and expiry, and the index state the engine synchronises with. The
 * index is written the way the engine writes it, after the record ({@link #commit}), so backends
 * whose index is the record (PostgreSQL) pass it too.
 */
public abstract class SearchIndexContract extends StorageContractSupport {
  private static final Scope ALICE = Scope.user("alice");
  private static final LocalDate TODAY = LocalDate.of(2024, 6, 1);

  private static IndexQuery query(String tenant, Scope scope) {
    return new IndexQuery(tenant, scope, Filter.all(), false, TODAY);
  }

  private static List<String> ids(List<SearchIndex.Candidate> candidates) {
    return candidates.stream().map(SearchIndex.Candidate::id).toList();
  }

  /**
   * Adds "x" and "y" (along the first and second axes) for alice of tenant t1, "bob-x" for bob and
   * "other-x" in tenant t2; returns a query vector of cosine 0.8 to x and 0.6 to y.
   */
  private float[] alongXAndY() {
    add(
        memory("t1", "x", ALICE, "along x", 0),
        memory("t1", "y", ALICE, "along y", 1),
        memory("t1", "bob-x", Scope.user("bob"), "bob along x", 0));
    add(memory("t2", "other-x", ALICE, "other tenant along x", 0));
    float[] q = new float[DIMENSION];
    q[0] = 0.8f;
    q[1] = 0.6f;
    return q;
  }

  @Test
  void denseSearchRanksByCosineInsideTenantAndScope() {
    float[] q = alongXAndY();
    List<SearchIndex.Candidate> hits = index.dense(query("t1", ALICE), IndexField.TEXT, q, 10);
    assertThat(ids(hits)).containsExactly("x", "y");
    assertThat(hits.get(0).score()).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(hits.get(1).score()).isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(ids(index.dense(query("t1", ALICE), IndexField.TEXT, q, 1))).containsExactly("x");
    assertThat(ids(index.dense(query("t2", ALICE), IndexField.TEXT, q, 10)))
        .containsExactly("other-x");
    assertThat(index.dense(query("t3", ALICE), IndexField.TEXT, q, 10)).isEmpty();
  }

  @Test
  void denseForManyVectorsAtOnceIsDenseForEach() {
    float[] q = alongXAndY();
    float[] nearY = new float[DIMENSION];
    nearY[0] = 0.3f;
    nearY[1] = 0.9f;
    List<float[]> vectors = List.of(q, nearY, q);
    for (IndexQuery reach : List.of(query("t1", ALICE), query("t2", ALICE), query("t3", ALICE))) {
      for (int k : new int[] {1, 10}) {
        List<List<SearchIndex.Candidate>> together =
            index.denseEach(reach, IndexField.TEXT, vectors, k);
        assertThat(together).hasSize(3);
        for (int i = 0; i < vectors.size(); i++) {
          assertThat(together.get(i))
              .isEqualTo(index.dense(reach, IndexField.TEXT, vectors.get(i), k));
        }
      }
    }
    assertThat(ids(index.denseEach(query("t1", ALICE), IndexField.TEXT, vectors, 10).get(1)))
        .containsExactly("y", "x");
    assertThat(index.denseEach(query("t1", ALICE), IndexField.TEXT, List.of(), 10)).isEmpty();
  }

  /**
   * Whether the index answers {@link SearchIndex#similarities} from vectors it keeps (the default
   * answers for none, and the engine reads the records).
   */
  protected boolean answersSimilarities() {
    return false;
  }

  @Test
  void similaritiesAreTheTrueCosinesOfTheQuerysOwnMemoriesOnly() {
    float[] q = alongXAndY();
    Map<String, Double> cosines =
        index.similarities(
            query("t1", ALICE),
            IndexField.TEXT,
            q,
            List.of("x", "y", "bob-x", "other-x", "missing"));
    if (answersSimilarities()) {
      assertThat(cosines).containsOnlyKeys("x", "y");
    }
    assertThat(cosines.keySet()).isSubsetOf("x", "y");
    cosines.forEach(
        (id, cosine) ->
            assertThat(cosine)
                .isEqualTo(
                    VectorMath.cosine(q, store.get("t1", id).orElseThrow().embeddingView())));
    assertThat(index.similarities(query("t1", ALICE), IndexField.TEXT, q, List.of())).isEmpty();
  }

  @Test
  void keywordSearchFindsWordsInsideTenantAndScope() {
    add(
        memory("t1", "cello", ALICE, "Alice plays the cello on Sundays", 0),
        memory("t1", "tea", ALICE, "Alice drinks green tea", 1),
        memory("t1", "both", ALICE, "cello practice with tea, cello again", 2),
        memory("t1", "bob", Scope.user("bob"), "Bob plays the cello too", 3));
    add(memory("t2", "t2-cello", ALICE, "cello in another tenant", 0));
    List<SearchIndex.Candidate> hits =
        index.keyword(query("t1", ALICE), IndexField.TEXT, "cello", 10);
    assertThat(ids(hits)).containsExactlyInAnyOrder("cello", "both");
    assertThat(hits).allSatisfy(h -> assertThat(h.score()).isPositive());
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.TEXT, "tea cello", 10)))
        .first()
        .isEqualTo("both");
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.TEXT, "tea cello", 10))).hasSize(3);
    assertThat(index.keyword(query("t1", ALICE), IndexField.TEXT, "violin", 10)).isEmpty();
    assertThat(ids(index.keyword(query("t2", ALICE), IndexField.TEXT, "cello", 10)))
        .containsExactly("t2-cello");
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.TEXT, "cello", 1))).hasSize(1);
  }

  @Test
  void contextKeywordSearchFindsWordsOfTheSourceContextInsideTenantAndScope() {
    add(
        withContext(
            memory("t1", "agencies", ALICE, "Researching adoption agencies", 0),
            "What are your plans for the summer? Researching adoption agencies"),
        withContext(
            memory("t1", "window", ALICE, "It stands for freedom", 1),
            "What does the stained glass window mean? It stands for freedom"),
        memory("t1", "plain", ALICE, "Alice spends the summer in Porto", 2),
        withContext(
            memory("t1", "bob", Scope.user("bob"), "Bob is researching too", 3),
            "Plans for the summer? Researching"));
    add(withContext(memory("t2", "t2-summer", ALICE, "another tenant", 0), "summer plans"));
    List<SearchIndex.Candidate> hits =
        index.keyword(query("t1", ALICE), IndexField.CONTEXT, "summer plans", 10);
    assertThat(ids(hits))
        .containsExactly("agencies"); // "plain" says summer in its text only: no context
    assertThat(hits).allSatisfy(h -> assertThat(h.score()).isPositive());
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.CONTEXT, "summer window", 10)))
        .containsExactlyInAnyOrder("agencies", "window");
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.CONTEXT, "summer window", 1)))
        .hasSize(1);
    assertThat(index.keyword(query("t1", ALICE), IndexField.CONTEXT, "violin", 10)).isEmpty();
    assertThat(ids(index.keyword(query("t2", ALICE), IndexField.CONTEXT, "summer", 10)))
        .containsExactly("t2-summer");
    // the text field holds text only
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.TEXT, "plans", 10))).isEmpty();

    commit(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.delete(
                    store.get("t1", "agencies").orElseThrow(),
                    ChangePipelines.DELETE,
                    DELETED_AT))));
    assertThat(index.keyword(query("t1", ALICE), IndexField.CONTEXT, "summer plans", 10)).isEmpty();
  }

  private static final List<String> THINGS =
      List.of(
          "apple",
          "bridge",
          "candle",
          "desert",
          "engine",
          "forest",
          "garden",
          "harbor",
          "island",
          "jungle",
          "kettle",
          "lantern",
          "meadow",
          "needle",
          "orchard",
          "pepper",
          "quarry",
          "river",
          "saddle",
          "tunnel",
          "umbrella",
          "valley",
          "wagon",
          "yacht",
          "zipper",
          "anchor",
          "basket",
          "castle");

  @Test
  void keywordSearchesFindNoMemoryThatMatchesOnlyTermsCommonInTheSearchedMemories() {
    List<StoredMemory> alices = new ArrayList<>();
    for (int i = 0;
        i < THINGS.size();
        i++) { // "alice" in 29 of Alice's 30 memories and contexts: common there
      alices.add(
          withContext(
              memory("t1", THINGS.get(i), ALICE, "Alice likes the " + THINGS.get(i), i % 4),
              "Alice talked about the " + THINGS.get(i) + (i == 0 ? " all summer" : "")));
    }
    alices.add(memory("t1", "plays", ALICE, "Alice plays the cello", 0));
    alices.add(memory("t1", "lessons", ALICE, "Cello lessons every week", 1));
    add(alices.toArray(StoredMemory[]::new));
    List<StoredMemory> bobs = new ArrayList<>();
    for (int i = 0;
        i < THINGS.size() - 3;
        i++) { // 25 of Bob's 26 memories say "bob"; one says "alice"
      bobs.add(
          memory(
              "t1",
              "bob-" + THINGS.get(i),
              Scope.user("bob"),
              "Bob fixed the " + THINGS.get(i),
              i % 4));
    }
    bobs.add(memory("t1", "bob-met", Scope.user("bob"), "Met Alice at the cello recital", 0));
    add(bobs.toArray(StoredMemory[]::new));
    IndexQuery alice = query("t1", ALICE);

    List<SearchIndex.Candidate> cello = index.keyword(alice, IndexField.TEXT, "Alice cello", 50);
    assertThat(ids(cello))
        .containsExactly("plays", "lessons"); // "alice" adds to the score of "plays" only
    assertThat(cello.get(0).score()).isGreaterThan(cello.get(1).score());
    assertThat(ids(index.keyword(alice, IndexField.TEXT, "alice apple", 50)))
        .containsExactly("apple");
    assertThat(index.keyword(alice, IndexField.TEXT, "alice violin", 50))
        .isEmpty(); // its own word is nowhere
    // all common: as before
    assertThat(ids(index.keyword(alice, IndexField.TEXT, "alice", 50)))
        .hasSize(29)
        .doesNotContain("lessons");
    // counted among the memories searched: "alice" is rare in Bob's memories, and "bob" common
    // there
    assertThat(ids(index.keyword(query("t1", Scope.user("bob")), IndexField.TEXT, "bob alice", 50)))
        .containsExactly("bob-met");
    assertThat(
            ids(index.keyword(query("t1", Scope.user("bob")), IndexField.TEXT, "alice cello", 50)))
        .containsExactly("bob-met");

    assertThat(ids(index.keyword(alice, IndexField.CONTEXT, "alice summer", 50)))
        .containsExactly("apple");
    assertThat(ids(index.keyword(alice, IndexField.CONTEXT, "alice", 50))).hasSize(THINGS.size());
  }

  @Test
  void
      contextDenseSearchRanksTheContextEmbeddingsInsideTenantAndScopeOrFindsNoneWhereTheyAreNotKept() {
    add(
        withContextEmbedding(memory("t1", "answer", ALICE, "Researching adoption agencies", 1), 0),
        withContextEmbedding(memory("t1", "bike", ALICE, "Bought a bike", 2), 3),
        memory("t1", "plain", ALICE, "no context, own vector along the query", 0),
        withContextEmbedding(memory("t1", "bob", Scope.user("bob"), "Bob's answer", 1), 0));
    add(withContextEmbedding(memory("t2", "t2-answer", ALICE, "another tenant", 1), 0));
    float[] q = new float[DIMENSION];
    q[0] = 0.8f;
    q[3] = 0.6f;
    List<SearchIndex.Candidate> hits = index.dense(query("t1", ALICE), IndexField.CONTEXT, q, 10);
    if (!index.denseFields().contains(IndexField.CONTEXT)) {
      assertThat(hits).isEmpty();
      return;
    }
    assertThat(ids(hits)).containsExactly("answer", "bike"); // "plain" has no context embedding
    assertThat(hits.get(0).score()).isCloseTo(0.8, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(hits.get(1).score()).isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-4));
    assertThat(ids(index.dense(query("t1", ALICE), IndexField.CONTEXT, q, 1)))
        .containsExactly("answer");
    assertThat(ids(index.dense(query("t2", ALICE), IndexField.CONTEXT, q, 10)))
        .containsExactly("t2-answer");
    assertThat(ids(index.dense(query("t1", ALICE), IndexField.TEXT, q, 1)))
        .as("the memory's own vector stays its own")
        .containsExactly("plain");

    commit(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.update(
                    store.get("t1", "answer").orElseThrow().withContextEmbedding(new float[0]),
                    "Researching adoption agencies",
                    ChangePipelines.UPDATE))));
    assertThat(ids(index.dense(query("t1", ALICE), IndexField.CONTEXT, q, 10)))
        .containsExactly("bike");
  }

  /** {@code m} with a context and a context embedding along {@code axis}. */
  private static StoredMemory withContextEmbedding(StoredMemory m, int axis) {
    return new StoredMemory(
        m.tenant(), m.item(), m.embedding(), "the conversation before", axis(axis));
  }

  private static StoredMemory withContext(StoredMemory m, String context) {
    return new StoredMemory(m.tenant(), m.item(), m.embedding(), context);
  }

  @Test
  void updatesAndDeletesAreSeenBySearches() {
    StoredMemory a = memory("t1", "a", ALICE, "the violin is loud", 0);
    add(a, memory("t1", "b", ALICE, "the piano is quiet", 1));
    MemoryItem changed =
        a.item().withContent("the drum is loud", Map.of(), null, a.item().createdAt());
    commit(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.update(
                    new StoredMemory("t1", changed, axis(2)),
                    "the violin is loud",
                    ChangePipelines.UPDATE),
                MemoryChange.delete(
                    store.get("t1", "b").orElseThrow(), ChangePipelines.DELETE, DELETED_AT))));
    assertThat(index.keyword(query("t1", ALICE), IndexField.TEXT, "violin piano", 10)).isEmpty();
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.TEXT, "drum", 10)))
        .containsExactly("a");
    assertThat(ids(index.dense(query("t1", ALICE), IndexField.TEXT, axis(2), 10)))
        .containsExactly("a");
  }

  @Test
  void filtersAndExpiryApplyInsideTheIndex() {
    MemoryItem base = item("m", ALICE, "tagged memory");
    MemoryItem red =
        new MemoryItem(
            "red",
            "red tagged memory",
            base.hash(),
            Map.of("color", "red"),
            "alice",
            null,
            null,
            null,
            null,
            base.createdAt(),
            base.updatedAt(),
            null,
            List.of(),
            null);
    MemoryItem blue =
        new MemoryItem(
            "blue",
            "blue tagged memory",
            base.hash(),
            Map.of("color", "blue"),
            "alice",
            null,
            null,
            null,
            null,
            base.createdAt(),
            base.updatedAt(),
            null,
            List.of(),
            TODAY);
    add(stored("t1", red, 0), stored("t1", blue, 0));
    Filter isRed = Mem0Filters.fromMap(Map.of("color", "red"));
    IndexQuery redOnly = new IndexQuery("t1", ALICE, isRed, true, TODAY);
    assertThat(ids(index.dense(redOnly, IndexField.TEXT, axis(0), 10))).containsExactly("red");
    assertThat(ids(index.keyword(redOnly, IndexField.TEXT, "tagged", 10))).containsExactly("red");
    assertThat(ids(index.keyword(query("t1", ALICE), IndexField.TEXT, "tagged", 10)))
        .containsExactly("red");
    IndexQuery withExpired = new IndexQuery("t1", ALICE, Filter.all(), true, TODAY);
    assertThat(ids(index.keyword(withExpired, IndexField.TEXT, "tagged", 10)))
        .containsExactlyInAnyOrder("red", "blue");
    assertThat(
            ids(
                index.dense(
                    new IndexQuery("t1", ALICE, Filter.all(), false, TODAY.minusDays(1)),
                    IndexField.TEXT,
                    axis(0),
                    10)))
        .containsExactlyInAnyOrder("red", "blue");
  }

  @Test
  void theStateFollowsTheRecordAndAResetEmptiesTheTenant() {
    long seq = add(memory("t1", "a", ALICE, "first", 0), memory("t1", "b", ALICE, "second", 1));
    add(memory("t2", "c", ALICE, "third", 2));
    index.commit();
    SearchIndex.IndexState state = index.state();
    assertThat(state.generation()).isEqualTo(store.generation());
    assertThat(state.seq()).isEqualTo(store.lastSeq()).isGreaterThan(seq);
    assertThat(state.documents()).isEqualTo(3);

    store.reset("t1");
    index.apply(List.of(new IndexOp.RemoveTenant("t1")), store.lastSeq(), store.generation());
    index.commit();
    assertThat(index.keyword(query("t1", ALICE), IndexField.TEXT, "first second", 10)).isEmpty();
    assertThat(index.dense(query("t1", ALICE), IndexField.TEXT, axis(0), 10)).isEmpty();
    assertThat(ids(index.keyword(query("t2", ALICE), IndexField.TEXT, "third", 10)))
        .containsExactly("c");
    assertThat(index.state().generation()).isEqualTo(store.generation());
    assertThat(index.state().documents()).isEqualTo(1);

    reopen();
    assertThat(index.state().documents()).isEqualTo(1);
    assertThat(ids(index.dense(query("t2", ALICE), IndexField.TEXT, axis(2), 10)))
        .containsExactly("c");
  }
}

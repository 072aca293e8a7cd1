package dev.engram.lucene;

import static dev.engram.lucene.Docs.ids;
import static dev.engram.lucene.Docs.query;
import static dev.engram.lucene.Docs.upsert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.DimensionMismatchException;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.SearchIndex.IndexState;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LuceneSearchIndexTest extends LuceneIndexTestCase {
  @Test
  void appliedChangesAreVisibleToTheNextSearchAndRemoveDeletes() {
    index.apply(
        List.of(
            upsert("t", "m1", "alice likes tea", "alice", DIM, 0),
            upsert("t", "m2", "alice plays chess", "alice", DIM, 1)),
        2,
        1);
    assertThat(ids(index.dense(query("t", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactly("m1", "m2");

    index.apply(List.of(new IndexOp.Remove("t", "m1")), 3, 1);
    assertThat(ids(index.dense(query("t", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactly("m2");
    assertThat(index.state().documents()).isEqualTo(1);
  }

  @Test
  void upsertReplacesTheDocumentOfTheSameId() {
    index.apply(List.of(upsert("t", "m1", "alice likes tea", "alice", DIM, 0)), 1, 1);
    index.apply(List.of(upsert("t", "m1", "alice likes coffee", "alice", DIM, 0)), 2, 1);

    assertThat(index.keyword(query("t", ALICE), IndexField.TEXT, "tea", 10)).isEmpty();
    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "coffee", 10)))
        .containsExactly("m1");
    assertThat(index.state().documents()).isEqualTo(1);
  }

  @Test
  void tenantsAreIsolatedAndRemoveTenantDeletesOnlyItsDocuments() {
    index.apply(
        List.of(
            upsert("t1", "same-id", "alice likes tea", "alice", DIM, 0),
            upsert("t2", "same-id", "alice likes tea", "alice", DIM, 0),
            upsert("t2", "other", "alice likes tea too", "alice", DIM, 1)),
        3,
        1);
    assertThat(ids(index.dense(query("t1", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactly("same-id");
    assertThat(ids(index.keyword(query("t2", ALICE), IndexField.TEXT, "tea", 10)))
        .containsExactlyInAnyOrder("same-id", "other");

    index.apply(List.of(new IndexOp.Remove("t1", "same-id")), 4, 1);
    assertThat(index.dense(query("t1", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)).isEmpty();
    assertThat(ids(index.dense(query("t2", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactly("same-id", "other");

    index.apply(
        List.of(
            upsert("t1", "back", "alice likes tea", "alice", DIM, 0),
            new IndexOp.RemoveTenant("t2")),
        5,
        1);
    assertThat(index.dense(query("t2", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)).isEmpty();
    assertThat(ids(index.dense(query("t1", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactly("back");
    assertThat(index.state().documents()).isEqualTo(1);
  }

  @Test
  void scopeSetsOnlyTheIdsItNames() {
    index.apply(
        List.of(
            new IndexOp.Upsert(
                Docs.stored(
                    "t",
                    Docs.item("a1", "tea", "alice", "agent1", Map.of(), null),
                    Docs.axis(DIM, 0))),
            new IndexOp.Upsert(
                Docs.stored(
                    "t",
                    Docs.item("a2", "tea", "alice", "agent2", Map.of(), null),
                    Docs.axis(DIM, 1))),
            new IndexOp.Upsert(
                Docs.stored(
                    "t", Docs.item("a3", "tea", "alice", null, Map.of(), null), Docs.axis(DIM, 2))),
            new IndexOp.Upsert(
                Docs.stored(
                    "t",
                    Docs.item("b1", "tea", "bob", "agent1", Map.of(), null),
                    Docs.axis(DIM, 3)))),
        4,
        1);

    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "tea", 10)))
        .containsExactlyInAnyOrder("a1", "a2", "a3");
    assertThat(
            ids(
                index.keyword(
                    query("t", Scope.of("alice", "agent1", null)), IndexField.TEXT, "tea", 10)))
        .containsExactly("a1");
    assertThat(ids(index.keyword(query("t", Scope.agent("agent1")), IndexField.TEXT, "tea", 10)))
        .containsExactlyInAnyOrder("a1", "b1");
    assertThat(
            index.keyword(query("t", Scope.of("alice", null, "run1")), IndexField.TEXT, "tea", 10))
        .isEmpty();
    assertThat(index.keyword(query("t", Scope.user("carol")), IndexField.TEXT, "tea", 10))
        .isEmpty();
  }

  @Test
  void expiredMemoriesAreLeftOutUnlessAskedFor() {
    LocalDate today = Docs.TODAY;
    index.apply(
        List.of(
            expiring("yesterday", today.minusDays(1)),
            expiring("today", today),
            expiring("tomorrow", today.plusDays(1)),
            expiring("never", null)),
        4,
        1);

    IndexQuery live = new IndexQuery("t", ALICE, Filter.all(), false, today);
    IndexQuery all = new IndexQuery("t", ALICE, Filter.all(), true, today);
    assertThat(ids(index.dense(live, IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactlyInAnyOrder("tomorrow", "never");
    assertThat(ids(index.keyword(live, IndexField.TEXT, "tea", 10)))
        .containsExactlyInAnyOrder("tomorrow", "never");
    assertThat(ids(index.dense(all, IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactlyInAnyOrder("yesterday", "today", "tomorrow", "never");
  }

  private static IndexOp expiring(String id, LocalDate expiration) {
    return new IndexOp.Upsert(
        Docs.stored(
            "t", Docs.item(id, "tea", "alice", null, Map.of(), expiration), Docs.axis(DIM, 0)));
  }

  @Test
  void stateReportsTheLastCommitAndSurvivesReopen() {
    assertThat(index.state()).isEqualTo(new IndexState(0, 0, 0));

    index.apply(List.of(upsert("t", "m1", "tea", "alice", DIM, 0)), 5, 2);
    assertThat(index.state()).isEqualTo(new IndexState(0, 0, 1));
    index.commit();
    assertThat(index.state()).isEqualTo(new IndexState(2, 5, 1));

    index.apply(List.of(upsert("t", "m2", "coffee", "alice", DIM, 1)), 6, 2);
    index.close();
    index = LuceneSearchIndex.open(dir, DIM);
    assertThat(index.state()).isEqualTo(new IndexState(2, 6, 2));
    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "coffee", 10)))
        .containsExactly("m2");
  }

  @Test
  void emptyApplyStillRecordsTheSequence() {
    index.apply(List.of(), 9, 4);
    index.commit();
    index.close();
    index = LuceneSearchIndex.open(dir, DIM);
    assertThat(index.state()).isEqualTo(new IndexState(4, 9, 0));
  }

  @Test
  void clearRemovesEverythingAndRecordsTheNewGeneration() {
    index.apply(
        List.of(upsert("t", "m1", "tea", "alice", DIM, 0), upsert("u", "m2", "tea", "bob", DIM, 1)),
        2,
        1);
    index.commit();

    index.clear(7);
    assertThat(index.dense(query("t", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)).isEmpty();
    assertThat(index.state()).isEqualTo(new IndexState(1, 2, 0));
    index.commit();
    assertThat(index.state()).isEqualTo(new IndexState(7, 0, 0));

    index.apply(List.of(upsert("t", "m3", "tea", "alice", DIM, 0)), 1, 7);
    assertThat(ids(index.dense(query("t", ALICE), IndexField.TEXT, Docs.axis(DIM, 0), 10)))
        .containsExactly("m3");
  }

  @Test
  void denseReturnsTheExactNearestNeighboursWithTheirCosines() {
    // Unit vectors in 4 dimensions; against q = (1, 0, 0, 0) the cosine is the first component.
    index.apply(
        List.of(
            vector("far", Docs.unit(0, 1, 0, 0)), // cos 0
            vector("near", Docs.unit(0.8f, 0.6f, 0, 0)), // cos 0.8
            vector("nearest", Docs.unit(0.96f, 0, 0.28f, 0)), // cos 0.96
            vector("opposite", Docs.unit(-0.6f, 0, 0, 0.8f))), // cos -0.6
        4,
        1);

    List<Candidate> hits =
        index.dense(query("t", ALICE), IndexField.TEXT, new float[] {1, 0, 0, 0}, 10);
    assertThat(ids(hits)).containsExactly("nearest", "near", "far", "opposite");
    assertThat(hits.get(0).score()).isCloseTo(0.96, within(1e-6));
    assertThat(hits.get(1).score()).isCloseTo(0.8, within(1e-6));
    assertThat(hits.get(2).score()).isCloseTo(0.0, within(1e-6));
    assertThat(hits.get(3).score()).isCloseTo(-0.6, within(1e-6));

    assertThat(ids(index.dense(query("t", ALICE), IndexField.TEXT, new float[] {1, 0, 0, 0}, 1)))
        .containsExactly("nearest");
  }

  private static IndexOp vector(String id, float[] v) {
    return new IndexOp.Upsert(
        Docs.stored("t", Docs.item(id, id, "alice", null, Map.of(), null), v));
  }

  @Test
  void keywordRanksTheDocumentWithTheQueryTermsFirst() {
    index.apply(
        List.of(
            upsert("t", "both", "Alice went hiking in the mountains", "alice", DIM, 0),
            upsert("t", "one", "Alice likes the mountains", "alice", DIM, 1),
            upsert("t", "none", "Alice plays chess", "alice", DIM, 2)),
        3,
        1);

    List<Candidate> hits =
        index.keyword(query("t", ALICE), IndexField.TEXT, "hikes in mountains?", 10);
    assertThat(ids(hits)).containsExactly("both", "one");
    assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score()).isGreaterThan(0);
    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "hiking", 1)))
        .containsExactly("both");
  }

  @Test
  void specialCharactersInKeywordQueriesDoNotThrow() {
    index.apply(
        List.of(
            upsert("t", "m1", "C++ and C# (with AND/OR) cost $5: 100% \"sure\"", "alice", DIM, 0)),
        1,
        1);
    for (String text :
        List.of(
            "title:(foo AND bar*) OR ~baz^2",
            "\\",
            "*",
            "?",
            "\"unbalanced",
            "[x TO y}",
            "C++",
            "!!!",
            "-",
            "&&||",
            "/regex/",
            "\u0000",
            "😀 emoji")) {
      index.keyword(query("t", ALICE), IndexField.TEXT, text, 10);
    }
    assertThat(ids(index.keyword(query("t", ALICE), IndexField.TEXT, "cost: \"$5\" (AND", 10)))
        .containsExactly("m1");
  }

  @Test
  void aQueryOfOnlyStopWordsFindsNothing() {
    index.apply(List.of(upsert("t", "m1", "to be or not to be", "alice", DIM, 0)), 1, 1);
    assertThat(index.keyword(query("t", ALICE), IndexField.TEXT, "to be or not", 10)).isEmpty();
    assertThat(index.keyword(query("t", ALICE), IndexField.TEXT, "   ", 10)).isEmpty();
  }

  @Test
  void vectorsOfTheWrongDimensionAreRejectedWithAClearMessage() {
    assertThatThrownBy(
            () -> index.apply(List.of(upsert("t", "m1", "tea", "alice", DIM + 1, 0)), 1, 1))
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining("memory m1")
        .hasMessageContaining("5 dimensions")
        .hasMessageContaining("4 dimensions");
    assertThatThrownBy(() -> index.dense(query("t", ALICE), IndexField.TEXT, new float[3], 10))
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining("3 dimensions");
    assertThatThrownBy(() -> index.dense(query("t", ALICE), IndexField.TEXT, new float[DIM], 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("k");
  }

  @Test
  void searchesAfterCloseFailClearly() {
    index.close();
    assertThatThrownBy(() -> index.keyword(query("t", ALICE), IndexField.TEXT, "tea", 10))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }
}

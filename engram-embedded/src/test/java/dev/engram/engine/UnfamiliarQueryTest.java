package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.lucene.LuceneSearchIndex;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link UnfamiliarQuery}: the coverage of a query's words, weighted by their rarity in the scope,
 * on a real Lucene index; and the cut it makes with the query's best relevance.
 */
class UnfamiliarQueryTest {
  private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");
  private static final IndexQuery ALICE =
      new IndexQuery("t", Scope.user("alice"), Filter.all(), false, LocalDate.parse("2024-06-01"));

  @TempDir Path dir;
  private LuceneSearchIndex index;

  @BeforeEach
  void open() {
    index = LuceneSearchIndex.open(dir, 4);
  }

  @AfterEach
  void close() {
    index.close();
  }

  /**
   * {@code n} memories of alice: every one names her, the first her pottery class, every tenth
   * after it her garden.
   */
  private void store(int n) {
    List<IndexOp> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String text =
          i == 0
              ? "Alice took a pottery class on Saturday"
              : i % 10 == 0 ? "Alice planted tomatoes in her garden" : "Alice went for a walk " + i;
      MemoryItem item =
          new MemoryItem(
              "m" + i, text, "h" + i, Map.of(), "alice", null, null, null, Role.USER, T0, T0, null,
              List.of(), null);
      ops.add(new IndexOp.Upsert(new StoredMemory("t", item, new float[] {1, 0, 0, 0})));
    }
    index.apply(ops, 1, 1);
  }

  @Test
  void aQueryWhoseRareWordsTheScopeHoldsIsCoveredAndOneWhoseRareWordsItLacksIsNot() {
    store(120);

    // "pottery" (1 of 120) and "alice" (all) held: covered in full
    assertThat(UnfamiliarQuery.coverage(index, ALICE, "Alice pottery")).hasValue(1.0);
    // "sourdough" and "bread" in none: only alice's name, which weighs nothing, is held
    assertThat(UnfamiliarQuery.coverage(index, ALICE, "Alice bake sourdough bread").get())
        .isLessThan(0.01);
    // "garden" (11 of 120: ln(121 / 12) = 2.311) held, "compost" (ln 121 = 4.796) not: 0.325
    assertThat(UnfamiliarQuery.coverage(index, ALICE, "garden compost").get())
        .isCloseTo(0.325, org.assertj.core.data.Offset.offset(0.005));
    // only words every memory holds: no informative word, covered
    assertThat(UnfamiliarQuery.coverage(index, ALICE, "Alice")).hasValue(1.0);
  }

  @Test
  void theCutNeedsNoCloseMemoryALowCoverageAndNoKnownName() {
    store(120);

    assertThat(UnfamiliarQuery.cut(index, ALICE, "bake sourdough bread", 0.5, () -> false))
        .isTrue();
    assertThat(
            UnfamiliarQuery.cut(
                index, ALICE, "bake sourdough bread", UnfamiliarQuery.CLOSE, () -> false))
        .isFalse();
    // a query that names someone the scope knows is about them, whatever words it lacks
    assertThat(UnfamiliarQuery.cut(index, ALICE, "bake sourdough bread", 0.5, () -> true))
        .isFalse();
    assertThat(UnfamiliarQuery.cut(index, ALICE, "pottery class", 0.5, () -> false)).isFalse();
  }

  @Test
  void aQuestionsWordsAboutTheConversationDoNotMakeItUnfamiliar() {
    store(120);
    String question = "Which pottery class was mentioned in the conversations?";
    dev.engram.analysis.QueryAnalyzer english = dev.engram.analysis.QueryAnalyzer.english();

    // read with its words about the conversation, which no memory holds, it looks unfamiliar
    assertThat(UnfamiliarQuery.cut(index, ALICE, english.keywords(question), 0.5, () -> false))
        .isTrue();
    // its words about its subject are held
    assertThat(UnfamiliarQuery.coverage(index, ALICE, english.subjectWords(question)))
        .hasValue(1.0);
    assertThat(UnfamiliarQuery.cut(index, ALICE, english.subjectWords(question), 0.5, () -> false))
        .isFalse();
    // and one about something the scope never heard of still is
    assertThat(
            UnfamiliarQuery.cut(
                index,
                ALICE,
                english.subjectWords("Which sourdough bread was mentioned in the conversations?"),
                0.5,
                () -> false))
        .isTrue();
    // a question with no word about its subject is not judged
    assertThat(UnfamiliarQuery.coverage(index, ALICE, english.subjectWords("What was said?")))
        .isEmpty();
  }

  @Test
  void theNamesAreLookedUpOnlyWhenTheWordsWouldCut() {
    store(120);
    boolean[] asked = {false};

    UnfamiliarQuery.cut(
        index,
        ALICE,
        "pottery class",
        0.5,
        () -> {
          asked[0] = true;
          return false;
        });

    assertThat(asked[0]).isFalse();
  }

  @Test
  void aSmallScopeIsNeverCut() {
    store(UnfamiliarQuery.MIN_MEMORIES - 1);

    assertThat(UnfamiliarQuery.coverage(index, ALICE, "bake sourdough bread")).isEmpty();
    assertThat(UnfamiliarQuery.cut(index, ALICE, "bake sourdough bread", 0.31, () -> false))
        .isFalse();
  }
}

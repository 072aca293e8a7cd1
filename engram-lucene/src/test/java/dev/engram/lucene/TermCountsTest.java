package dev.engram.lucene;

import static dev.engram.lucene.Docs.query;
import static dev.engram.lucene.Docs.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.spi.IndexField;
import dev.engram.spi.SearchIndex.TermCounts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link LuceneSearchIndex#termCounts}: each analysed term's documents and the memories counted
 * within the query's tenant and scope only, on a real Lucene index.
 */
class TermCountsTest extends LuceneIndexTestCase {

  @Test
  void countsEachAnalysedTermsMemoriesWithinTheTenantAndScope() {
    index.apply(
        List.of(
            upsert("t", "m1", "Alice likes green tea", "alice", DIM, 0),
            upsert("t", "m2", "Alice adopted a puppy", "alice", DIM, 1),
            upsert("t", "m3", "Alice plays chess", "alice", DIM, 2),
            upsert("t", "m4", "Bob bakes sourdough bread", "bob", DIM, 3),
            upsert("t2", "m5", "Alice bakes sourdough", "alice", DIM, 0)),
        1,
        1);

    TermCounts counts =
        index
            .termCounts(query("t", ALICE), IndexField.TEXT, "alice baking sourdough the tea")
            .get();

    assertThat(counts.memories()).isEqualTo(3);
    assertThat(counts.frequencies())
        .containsExactly(
            Map.entry("alic", 3),
            Map.entry("bake", 0),
            Map.entry("sourdough", 0),
            Map.entry("tea", 1));
    assertThat(
            index
                .termCounts(query("t", Scope.user("bob")), IndexField.TEXT, "sourdough")
                .get()
                .frequencies())
        .containsExactly(Map.entry("sourdough", 1));
  }

  @Test
  void aTextOfStopWordsOnlyHasNoTerms() {
    index.apply(List.of(upsert("t", "m1", "Alice likes tea", "alice", DIM, 0)), 1, 1);

    TermCounts counts = index.termCounts(query("t", ALICE), IndexField.TEXT, "the and of").get();

    assertThat(counts.memories()).isEqualTo(1);
    assertThat(counts.frequencies()).isEmpty();
  }
}

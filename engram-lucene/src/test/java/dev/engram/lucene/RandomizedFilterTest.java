package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.FilterEvaluator;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.RandomFilters;
import dev.engram.testing.RandomMemories;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The filter translation agrees exactly with {@link FilterEvaluator}: for random memories and
 * random filters, dense search with k at least the number of documents, and keyword search for a
 * word every memory holds, return exactly the memories of the scope that the evaluator accepts (and
 * that are not expired, unless asked). The seed is fixed and printed with each failure; set {@code
 * -Dengram.seed=...} to try others (the same generators run on every backend in {@link
 * dev.engram.testing.RandomFilterContract}).
 */
class RandomizedFilterTest {
  private static final long SEED = Long.getLong("engram.seed", 0x5EED_2024L);
  private static final int MEMORIES = 300;
  private static final int FILTERS = 500;
  private static final int DIM = 8;

  @TempDir Path dir;

  @Test
  void indexResultsAgreeWithTheReferenceEvaluator() {
    Random random = new Random(SEED);
    RandomMemories gen = new RandomMemories(random);
    Map<String, MemoryItem> live = new LinkedHashMap<>();
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, DIM)) {
      ingest(index, gen, random, live);
      List<MemoryItem> items = new ArrayList<>(live.values());
      RandomFilters filters = new RandomFilters(random, gen, items);
      int nonEmpty = 0;
      int partial = 0;
      for (int i = 0; i < FILTERS; i++) {
        Filter filter = filters.filter(0);
        IndexQuery q =
            new IndexQuery("t", Scope.user("u"), filter, random.nextInt(4) == 0, Docs.TODAY);
        Set<String> expected = expected(items, q);
        String context =
            "seed="
                + SEED
                + " filter #"
                + i
                + " includeExpired="
                + q.includeExpired()
                + ": "
                + filter;
        assertThat(Docs.ids(index.dense(q, IndexField.TEXT, gen.vector(DIM), MEMORIES)))
            .as("dense, " + context)
            .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(Docs.ids(index.keyword(q, IndexField.TEXT, "memo", MEMORIES)))
            .as("keyword, " + context)
            .containsExactlyInAnyOrderElementsOf(expected);
        nonEmpty += expected.isEmpty() ? 0 : 1;
        IndexQuery unfiltered =
            new IndexQuery("t", q.scope(), Filter.all(), q.includeExpired(), q.today());
        partial += expected.isEmpty() || expected.equals(expected(items, unfiltered)) ? 0 : 1;
      }
      // The generator must exercise both outcomes, not trivially match everything or nothing.
      assertThat(nonEmpty)
          .as("seed=" + SEED + ": filters matching something")
          .isGreaterThan(FILTERS / 4);
      assertThat(partial)
          .as("seed=" + SEED + ": filters matching a proper subset")
          .isGreaterThan(FILTERS / 5);
    }
  }

  /**
   * Adds the memories in batches with commits between (several segments), then updates and removes
   * some.
   */
  private static void ingest(
      LuceneSearchIndex index, RandomMemories gen, Random random, Map<String, MemoryItem> live) {
    long seq = 0;
    List<IndexOp> batch = new ArrayList<>();
    for (int i = 0; i < MEMORIES; i++) {
      MemoryItem item = gen.item("mem-" + i);
      live.put(item.id(), item);
      batch.add(new IndexOp.Upsert(new StoredMemory("t", item, gen.vector(DIM))));
      if (batch.size() == 70) {
        index.apply(List.copyOf(batch), seq += batch.size(), 1);
        index.commit();
        batch.clear();
      }
    }
    for (int i = 0; i < 40; i++) {
      String id = "mem-" + random.nextInt(MEMORIES);
      if (random.nextBoolean()) {
        MemoryItem item = gen.item(id);
        live.put(id, item);
        batch.add(new IndexOp.Upsert(new StoredMemory("t", item, gen.vector(DIM))));
      } else {
        live.remove(id);
        batch.add(new IndexOp.Remove("t", id));
      }
    }
    // The same ids in another tenant must never show up.
    batch.add(new IndexOp.Upsert(new StoredMemory("other", gen.item("mem-0"), gen.vector(DIM))));
    index.apply(List.copyOf(batch), seq + batch.size(), 1);
  }

  private static Set<String> expected(List<MemoryItem> items, IndexQuery q) {
    Set<String> out = new TreeSet<>();
    for (MemoryItem m : items) {
      if (q.scope().contains(m.userId(), m.agentId(), m.runId())
          && (q.includeExpired() || !m.isExpired(q.today()))
          && FilterEvaluator.matches(q.filter(), m)) {
        out.add(m.id());
      }
    }
    return out;
  }
}

package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.filter.FilterEvaluator;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every backend's filter translation agrees exactly with {@link FilterEvaluator}, the reference
 * semantics: random memories ({@link RandomMemories}: edge cases of kinds, case, Unicode order,
 * nanoseconds) and random filters ({@link RandomFilters}: every operator and field, nested
 * AND/OR/NOT). {@code list} must return exactly the evaluator's memories in order with the right
 * total and page, {@code dense} with k above the count and {@code keyword} for a word every memory
 * holds exactly the evaluator's set. One seed property drives everything: {@code -Dengram.seed=N}
 * (default {@value #DEFAULT_SEED}); it is printed with every failure.
 */
public abstract class RandomFilterContract extends StorageContractSupport {
  /** The seed used when {@code engram.seed} is not set. */
  public static final long DEFAULT_SEED = 20240501L;

  /** The seed of this run. */
  public static final long SEED = Long.getLong("engram.seed", DEFAULT_SEED);

  private static final int MEMORIES = 300;
  private static final int FILTERS = 300;

  @Test
  void listAndSearchAgreeWithTheReferenceEvaluator() {
    Random random = new Random(SEED);
    RandomMemories gen =
        new RandomMemories(random, keepsUnpairedSurrogates(), distinguishesNegativeZero());
    Map<String, MemoryItem> live = new LinkedHashMap<>();
    ingest(gen, random, live);
    List<MemoryItem> items = new ArrayList<>(live.values());
    RandomFilters filters = new RandomFilters(random, gen, items);
    int nonEmpty = 0;
    int partial = 0;
    for (int i = 0; i < FILTERS; i++) {
      Filter filter = filters.filter(0);
      Scope scope = random.nextInt(4) == 0 ? Scope.of("u", "a1", null) : Scope.user("u");
      boolean includeExpired = random.nextInt(4) == 0;
      IndexQuery q = new IndexQuery("t", scope, filter, includeExpired, RandomMemories.TODAY);
      List<String> expected = expected(items, q);
      String context =
          "seed="
              + SEED
              + " (-Dengram.seed) filter #"
              + i
              + " scope="
              + scope
              + " includeExpired="
              + includeExpired
              + ": "
              + printable(filter.toString());
      int offset = random.nextInt(3) == 0 ? random.nextInt(20) : 0;
      int limit = random.nextInt(3) == 0 ? 1 + random.nextInt(30) : ListRequest.MAX_LIMIT;
      Page<MemoryItem> page =
          store.list(
              "t",
              new ListRequest(scope, filter, offset, limit, includeExpired),
              RandomMemories.TODAY);
      assertThat(page.total()).as("list total, " + context).isEqualTo(expected.size());
      assertThat(page.items())
          .extracting(MemoryItem::id)
          .as("list page, " + context)
          .containsExactlyElementsOf(
              expected.subList(
                  Math.min(offset, expected.size()), Math.min(expected.size(), offset + limit)));
      assertThat(ids(index.dense(q, IndexField.TEXT, gen.vector(DIMENSION), MEMORIES + 50)))
          .as("dense, " + context)
          .containsExactlyInAnyOrderElementsOf(expected);
      assertThat(ids(index.keyword(q, IndexField.TEXT, "memo", MEMORIES + 50)))
          .as("keyword, " + context)
          .containsExactlyInAnyOrderElementsOf(expected);
      nonEmpty += expected.isEmpty() ? 0 : 1;
      List<String> unfiltered =
          expected(
              items,
              new IndexQuery("t", scope, Filter.all(), includeExpired, RandomMemories.TODAY));
      partial += expected.isEmpty() || expected.equals(unfiltered) ? 0 : 1;
    }
    assertThat(nonEmpty)
        .as("seed=" + SEED + ": filters matching something")
        .isGreaterThan(FILTERS / 4);
    assertThat(partial)
        .as("seed=" + SEED + ": filters matching a proper subset")
        .isGreaterThan(FILTERS / 5);
  }

  /**
   * Adds the memories in several change sets, then updates and deletes some; the same ids in
   * another tenant.
   */
  private void ingest(RandomMemories gen, Random random, Map<String, MemoryItem> live) {
    List<MemoryChange> batch = new ArrayList<>();
    for (int i = 0; i < MEMORIES; i++) {
      MemoryItem item = gen.item("mem-" + i);
      live.put(item.id(), item);
      batch.add(
          MemoryChange.add(
              new StoredMemory("t", item, gen.vector(DIMENSION)), null, null, ChangePipelines.RAW));
      if (batch.size() == 70) {
        commit(ChangeSet.of("t", batch));
        batch.clear();
      }
    }
    commit(ChangeSet.of("t", batch));
    batch.clear();
    for (int i = 0; i < 40; i++) {
      String id = "mem-" + random.nextInt(MEMORIES);
      if (!live.containsKey(id) || batch.stream().anyMatch(c -> c.memory().id().equals(id))) {
        continue;
      }
      if (random.nextBoolean()) {
        MemoryItem item = gen.item(id);
        live.put(id, item);
        batch.add(
            MemoryChange.update(
                new StoredMemory("t", item, gen.vector(DIMENSION)), "old", ChangePipelines.UPDATE));
      } else {
        MemoryItem gone = live.remove(id);
        batch.add(
            MemoryChange.delete(
                new StoredMemory("t", gone, gen.vector(DIMENSION)),
                ChangePipelines.DELETE,
                DELETED_AT));
      }
    }
    commit(ChangeSet.of("t", batch));
    commit(
        ChangeSet.of(
            "other",
            List.of(
                MemoryChange.add(
                    new StoredMemory("other", gen.item("mem-0"), gen.vector(DIMENSION)),
                    null,
                    null,
                    ChangePipelines.RAW))));
  }

  private static List<String> expected(List<MemoryItem> items, IndexQuery q) {
    return items.stream()
        .filter(m -> q.scope().contains(m.userId(), m.agentId(), m.runId()))
        .filter(m -> q.includeExpired() || !m.isExpired(q.today()))
        .filter(m -> FilterEvaluator.matches(q.filter(), m))
        .sorted(InMemoryMemoryStore.NEWEST_FIRST)
        .map(MemoryItem::id)
        .toList();
  }

  /**
   * Non-ASCII characters as Java escapes, so reports show unpaired surrogates and U+FFFF intact.
   */
  static String printable(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c >= 0x20 && c < 0x7f) {
        sb.append(c);
      } else {
        sb.append(String.format("\\u%04X", (int) c));
      }
    }
    String out = sb.toString();
    return out.length() > 2000 ? out.substring(0, 2000) + "..." : out;
  }

  private static List<String> ids(List<SearchIndex.Candidate> candidates) {
    return candidates.stream().map(SearchIndex.Candidate::id).toList();
  }
}

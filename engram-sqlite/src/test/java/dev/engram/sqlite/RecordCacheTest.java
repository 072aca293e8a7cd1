package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangePipelines;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordCache}: what it keeps, what a write drops, what a read racing a write may not keep,
 * and the budget; and that {@link SqliteMemoryStore} serves repeated reads from it.
 */
class RecordCacheTest extends SqliteStoreTestCase {
  private final RecordCache cache = new RecordCache(RecordCache.BUDGET_BYTES);

  @Test
  void keepsWholeMemoriesAndMetadataAloneByTenant() {
    StoredMemory a = memory().id("a").metadata(Map.of("n", 1)).stored();
    cache.putMemories("t1", cache.version("t1"), List.of(a));
    cache.putMetadata("t1", cache.version("t1"), Map.of("b", Map.of("n", 2)));

    assertThat(cache.memories("t1", List.of("a", "b", "c"))).containsOnlyKeys("a");
    assertThat(cache.memories("t1", List.of("a")).get("a")).isSameAs(a);
    assertThat(cache.metadata("t1", List.of("a", "b", "c")))
        .containsOnly(Map.entry("a", Map.of("n", 1)), Map.entry("b", Map.of("n", 2)));
    assertThat(cache.memories("t2", List.of("a"))).isEmpty();
    assertThat(cache.metadata("t2", List.of("a", "b"))).isEmpty();
  }

  @Test
  void metadataReadLaterDoesNotReplaceAWholeMemory() {
    StoredMemory a = memory().id("a").metadata(Map.of("n", 1)).stored();
    cache.putMetadata("t1", 0, Map.of("a", Map.of("n", 1)));
    cache.putMemories("t1", 0, List.of(a));
    cache.putMetadata("t1", 0, Map.of("a", Map.of("n", 1)));
    assertThat(cache.memories("t1", List.of("a"))).containsOnlyKeys("a");
  }

  @Test
  void aWriteDropsWhatItWroteAndWhatWasReadBeforeItIsNotKept() {
    long before = cache.version("t1");
    cache.putMemories("t1", before, List.of(memory().id("a").stored(), memory().id("b").stored()));
    cache.putMemories("t2", cache.version("t2"), List.of(memory().tenant("t2").id("a").stored()));

    cache.invalidate("t1", List.of("a"));
    assertThat(cache.memories("t1", List.of("a", "b"))).containsOnlyKeys("b");
    assertThat(cache.memories("t2", List.of("a"))).containsOnlyKeys("a");

    // Rows read while the write ran (under the version before it) may hold what it replaced.
    cache.putMemories("t1", before, List.of(memory().id("a").text("old").stored()));
    cache.putMetadata("t1", before, Map.of("c", Map.of()));
    assertThat(cache.memories("t1", List.of("a"))).isEmpty();
    assertThat(cache.metadata("t1", List.of("c"))).isEmpty();

    long afterWrite = cache.version("t1");
    cache.invalidate("t1", List.of()); // window messages alone: no memory written
    assertThat(cache.version("t1")).isEqualTo(afterWrite);
    cache.putMemories("t1", afterWrite, List.of(memory().id("c").stored()));
    assertThat(cache.memories("t1", List.of("c"))).containsOnlyKeys("c");

    cache.invalidate("t1");
    assertThat(cache.memories("t1", List.of("b"))).isEmpty();
    assertThat(cache.memories("t2", List.of("a"))).containsOnlyKeys("a");
  }

  @Test
  void aSmallHeapKeepsASixteenthOfItself() {
    assertThat(RecordCache.defaultBudget(Long.MAX_VALUE)).isEqualTo(RecordCache.BUDGET_BYTES);
    assertThat(RecordCache.defaultBudget(256L << 20)).isEqualTo(16L << 20);
  }

  @Test
  void theLeastRecentlyUsedGoBeyondTheBudget() {
    StoredMemory a = memory().id("a").stored();
    RecordCache one = new RecordCache(1);
    one.putMemories("t1", 0, List.of(a));
    assertThat(one.memories("t1", List.of("a"))).isEmpty();
    assertThat(one.bytes()).isZero();

    RecordCache two = new RecordCache(2 * 1024);
    two.putMemories("t1", 0, List.of(a, memory().id("b").stored()));
    assertThat(two.memories("t1", List.of("a"))).containsOnlyKeys("a"); // now the most recent
    two.putMemories("t1", 0, List.of(memory().id("c").stored()));
    assertThat(two.memories("t1", List.of("a", "b", "c"))).containsOnlyKeys("a", "c");
    assertThat(two.bytes()).isPositive().isLessThanOrEqualTo(2 * 1024);
  }

  /**
   * The store reads a memory's row once: a change made to the file behind its back (which the
   * store, its file's only writer, never expects) is not seen by the reads after the first, until
   * the store's own write of that memory.
   */
  @Test
  void theStoreReadsARowOnceUntilItWritesIt() throws Exception {
    StoredMemory a = memory().id("a").text("likes tea").metadata(Map.of("n", 1)).stored();
    SqliteMemoryStoreTest.add(store, a, memory().id("b").stored());
    assertThat(store.getAll("t1", List.of("a")))
        .extracting(m -> m.item().text())
        .containsExactly("likes tea");
    assertThat(store.metadata("t1", List.of("b"))).containsOnlyKeys("b");

    Path db = store.file();
    SqliteFiles.exec(
        db,
        "UPDATE memories SET text = 'behind its back', metadata = '{\"n\":9}' WHERE id = 'a'",
        "UPDATE memories SET metadata = '{\"n\":9}' WHERE id = 'b'");
    assertThat(store.getAll("t1", List.of("a")))
        .extracting(m -> m.item().text())
        .containsExactly("likes tea");
    assertThat(store.metadata("t1", List.of("a", "b")))
        .containsOnly(Map.entry("a", Map.of("n", 1)), Map.entry("b", Map.of()));

    store.apply(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.update(
                    memory().id("a").text("likes coffee").stored(),
                    "likes tea",
                    ChangePipelines.UPDATE))));
    assertThat(store.getAll("t1", List.of("a")))
        .extracting(m -> m.item().text())
        .containsExactly("likes coffee");
  }

  @Test
  void aStoreWithoutBudgetReadsEveryRowEachTime() throws Exception {
    try (SqliteMemoryStore uncached =
        SqliteMemoryStore.open(dir.resolve("uncached.db"), Durability.NORMAL, 0)) {
      SqliteMemoryStoreTest.add(
          uncached, memory().id("a").text("likes tea").metadata(Map.of("n", 1)).stored());
      assertThat(uncached.getAll("t1", List.of("a"))).hasSize(1);
      assertThat(uncached.metadata("t1", List.of("a"))).containsEntry("a", Map.of("n", 1));
      SqliteFiles.exec(
          uncached.file(),
          "UPDATE memories SET text = 'behind its back', metadata = '{\"n\":9}' WHERE id = 'a'");
      assertThat(uncached.getAll("t1", List.of("a")))
          .extracting(m -> m.item().text())
          .containsExactly("behind its back");
      assertThat(uncached.metadata("t1", List.of("a"))).containsEntry("a", Map.of("n", 9));
    }
    assertThatThrownBy(() -> SqliteMemoryStore.open(dir.resolve("x.db"), Durability.NORMAL, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("recordCacheBytes");
  }

  /**
   * Readers racing one writer never see a memory older than the last update whose {@code apply} had
   * returned when their read began, whole or as metadata: what a reader caches while a write runs
   * is never served after it.
   */
  @Test
  void readersRacingAWriterNeverSeeAnUpdateUndone() throws Exception {
    int updates = 300;
    String id = "a";
    SqliteMemoryStoreTest.add(store, version(id, 0));
    AtomicInteger returned = new AtomicInteger();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        boolean whole = r == 0;
        readers.add(
            pool.submit(
                () -> {
                  int reads = 0;
                  while (writing.get() || reads == 0) {
                    int floor = returned.get();
                    int seen =
                        whole
                            ? Integer.parseInt(
                                store.getAll("t1", List.of(id)).get(0).item().text().substring(1))
                            : ((Number) store.metadata("t1", List.of(id)).get(id).get("v"))
                                .intValue();
                    assertThat(seen)
                        .as("read %d began after update %d returned", reads, floor)
                        .isGreaterThanOrEqualTo(floor);
                    reads++;
                  }
                  return reads;
                }));
      }
      Future<?> writer =
          pool.submit(
              () -> {
                for (int i = 1; i <= updates; i++) {
                  store.apply(
                      ChangeSet.of(
                          "t1",
                          List.of(
                              MemoryChange.update(
                                  version(id, i), "v" + (i - 1), ChangePipelines.UPDATE))));
                  returned.set(i);
                }
                writing.set(false);
                return null;
              });
      writer.get(120, TimeUnit.SECONDS);
      for (Future<Integer> f : readers) {
        assertThat(f.get(120, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      writing.set(false);
      pool.shutdownNow();
    }
    assertThat(store.getAll("t1", List.of(id)))
        .extracting(m -> m.item().text())
        .containsExactly("v" + updates);
  }

  private static StoredMemory version(String id, int v) {
    return memory().id(id).text("v" + v).metadata(Map.of("v", v)).stored();
  }
}

package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Searches (and repeat checks, which do not refresh) running beside writes and commits see every
 * change applied before they started, without errors.
 */
class ConcurrentAccessTest {
  private static final int DIM = 8;
  private static final int WRITES = 200;

  @TempDir Path dir;

  @Test
  void searchesSeeEveryChangeAppliedBeforeThemWhileWritesGoOn() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, DIM)) {
      AtomicInteger applied = new AtomicInteger();
      AtomicBoolean done = new AtomicBoolean();
      Future<?> writer =
          pool.submit(
              () -> {
                for (int i = 1; i <= WRITES; i++) {
                  index.apply(
                      List.of(Docs.upsert("t", "m" + i, "tea number " + i, "alice", DIM, i)), i, 1);
                  applied.set(i);
                  if (i % 50 == 0) {
                    index.commit();
                  }
                }
                done.set(true);
                return null;
              });
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        int kind = r % 3;
        readers.add(
            pool.submit(
                () -> {
                  IndexQuery q = Docs.query("t", Scope.user("alice"));
                  int searches = 0;
                  while (!done.get() || searches == 0) {
                    int before = applied.get();
                    int found =
                        switch (kind) {
                          case 0 ->
                              index.dense(q, IndexField.TEXT, Docs.axis(DIM, 0), WRITES).size();
                          case 1 -> index.keyword(q, IndexField.TEXT, "tea", WRITES).size();
                          default -> index.repeatCandidates(q, "tea", WRITES).size();
                        };
                    assertThat(found)
                        .as("hits after %d applied writes", before)
                        .isGreaterThanOrEqualTo(before);
                    searches++;
                  }
                  return searches;
                }));
      }
      Future<?> committer =
          pool.submit(
              () -> {
                while (!done.get()) {
                  index.commit();
                  Thread.sleep(5);
                }
                return null;
              });
      writer.get(2, TimeUnit.MINUTES);
      committer.get(1, TimeUnit.MINUTES);
      for (Future<Integer> f : readers) {
        assertThat(f.get(1, TimeUnit.MINUTES)).isPositive();
      }
      index.commit();
      assertThat(index.state())
          .isEqualTo(new dev.engram.spi.SearchIndex.IndexState(1, WRITES, WRITES));
    } finally {
      pool.shutdownNow();
    }
  }
}

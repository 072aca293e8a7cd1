package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.T0;
import static dev.engram.sqlite.Memories.memory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.ListRequest;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads writing and reading one store: no error, no lost write, every sequence number used
 * once.
 */
class ConcurrencyTest {
  static final int WRITERS = 4;
  static final int READERS = 4;
  static final int SETS_PER_WRITER = 40;
  static final int MEMORIES_PER_SET = 5;

  @TempDir Path dir;

  @Test
  void concurrentWritersAndReadersNeitherFailNorLoseWrites() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
    try (SqliteMemoryStore store = SqliteMemoryStoreTest.open(dir)) {
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean writing = new AtomicBoolean(true);
      List<Future<List<Long>>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String user = "user" + w;
        writers.add(pool.submit(() -> write(store, start, user)));
      }
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        String user = "user" + r;
        readers.add(pool.submit(() -> read(store, start, writing, user)));
      }
      start.countDown();
      Set<Long> seqs = new HashSet<>();
      for (Future<List<Long>> f : writers) {
        List<Long> mine = f.get(120, TimeUnit.SECONDS);
        assertThat(mine).isSorted().hasSize(SETS_PER_WRITER);
        seqs.addAll(mine);
      }
      writing.set(false);
      for (Future<Integer> f : readers) {
        assertThat(f.get(120, TimeUnit.SECONDS)).isPositive();
      }

      long total = (long) WRITERS * SETS_PER_WRITER * MEMORIES_PER_SET;
      assertThat(store.count()).isEqualTo(total);
      assertThat(store.lastSeq()).isEqualTo(total);
      assertThat(seqs)
          .hasSize(WRITERS * SETS_PER_WRITER)
          .allMatch(s -> s % MEMORIES_PER_SET == 0 && s >= MEMORIES_PER_SET && s <= total);
      List<Long> feed = new ArrayList<>();
      store.changesSince(0, c -> feed.add(c.seq()));
      assertThat(feed).containsExactlyElementsOf(LongStream.rangeClosed(1, total).boxed().toList());
      for (int w = 0; w < WRITERS; w++) {
        Scope scope = Scope.user("user" + w);
        assertThat(
                store
                    .list(
                        "t1", ListRequest.of(scope).withPage(0, 1000), SqliteMemoryStoreTest.TODAY)
                    .total())
            .isEqualTo((long) SETS_PER_WRITER * MEMORIES_PER_SET);
        assertThat(store.recentMessages("t1", scope, 100)).hasSize(10);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static List<Long> write(SqliteMemoryStore store, CountDownLatch start, String user)
      throws Exception {
    start.await();
    List<Long> seqs = new ArrayList<>();
    for (int s = 0; s < SETS_PER_WRITER; s++) {
      List<MemoryChange> changes = new ArrayList<>();
      for (int i = 0; i < MEMORIES_PER_SET; i++) {
        StoredMemory m =
            memory()
                .scope(user, null, null)
                .text(user + " fact " + s + "." + i)
                .created(T0.plusSeconds(s))
                .stored();
        changes.add(MemoryChange.add(m, null, null, ChangePipelines.RAW));
      }
      ChangeSet set =
          new ChangeSet(
              "t1",
              changes,
              List.of(
                  new ChangeSet.WindowAppend(
                      Scope.user(user), List.of(Message.user("turn " + s)), 10)));
      seqs.add(store.apply(set));
    }
    return seqs;
  }

  /** Reads until the writers finish; counts must never go down. Returns how many rounds it made. */
  private static int read(
      SqliteMemoryStore store, CountDownLatch start, AtomicBoolean writing, String user)
      throws Exception {
    start.await();
    long lastCount = 0;
    long lastSeq = 0;
    int rounds = 0;
    do {
      long count = store.count();
      long seq = store.lastSeq();
      assertThat(count).isGreaterThanOrEqualTo(lastCount);
      assertThat(seq).isGreaterThanOrEqualTo(lastSeq);
      var page =
          store.list(
              "t1", ListRequest.of(Scope.user(user)).withPage(0, 20), SqliteMemoryStoreTest.TODAY);
      List<String> ids = page.items().stream().map(dev.engram.MemoryItem::id).toList();
      assertThat(store.getAll("t1", ids)).hasSameSizeAs(ids);
      assertThat(page.total() % MEMORIES_PER_SET).isZero();
      lastCount = count;
      lastSeq = seq;
      rounds++;
    } while (writing.get());
    return rounds;
  }
}

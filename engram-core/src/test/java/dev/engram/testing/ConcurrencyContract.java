package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.EventType;
import dev.engram.MemoryEvent;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Contract: many threads adding and searching in their own and in a shared scope lose no write and fail never. */
public abstract class ConcurrencyContract extends ValidationContract {
  private static final int THREADS = 8;
  private static final int ADDS_PER_THREAD = 30;
  private static final Scope SHARED = Scope.user("shared");

  @Test
  void parallelAddsAndSearchesLoseNothing() throws Exception {
    Map<String, String> textById = new ConcurrentHashMap<>();
    List<Callable<Void>> workers = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      workers.add(() -> {
        start.await();
        Scope own = Scope.user("worker-" + thread);
        for (int i = 0; i < ADDS_PER_THREAD; i++) {
          String ownToken = "own" + thread + "x" + i;
          String ownId = addAndRemember(own, "private note " + ownToken, textById);
          assertThat(ids(memory.search(SearchRequest.builder(own, ownToken).topK(5).build()).hits()))
              .as("read your own write %s", ownToken).contains(ownId);
          String sharedToken = "shared" + thread + "x" + i;
          String sharedId = addAndRemember(SHARED, "shared note " + sharedToken, textById);
          assertThat(ids(memory.search(SearchRequest.builder(SHARED, sharedToken).topK(5).build()).hits()))
              .as("read your own write %s", sharedToken).contains(sharedId);
        }
        return null;
      });
    }
    runAll(workers, start);

    for (int t = 0; t < THREADS; t++) {
      assertThat(total(Scope.user("worker-" + t))).isEqualTo(ADDS_PER_THREAD);
    }
    assertThat(total(SHARED)).isEqualTo((long) THREADS * ADDS_PER_THREAD);
    assertThat(textById).hasSize(2 * THREADS * ADDS_PER_THREAD);
    assertThat(storedCount()).isEqualTo(2L * THREADS * ADDS_PER_THREAD);
    textById.forEach((id, text) -> assertThat(memory.get(id)).as(id).hasValueSatisfying(m ->
        assertThat(m.text()).isEqualTo(text)));
    for (int t = 0; t < THREADS; t++) {
      String token = "shared" + t + "x" + (ADDS_PER_THREAD - 1);
      assertThat(memory.search(SearchRequest.builder(SHARED, token).topK(2).build()).hits())
          .anySatisfy(h -> assertThat(h.memory().text()).isEqualTo("shared note " + token));
    }
  }

  private String addAndRemember(Scope scope, String text, Map<String, String> textById) {
    String id = addVerbatim(scope, text);
    assertThat(textById.put(id, text)).isNull();
    return id;
  }

  @Test
  void parallelInferredAddsOfTheSameTextMakeOneMemory() throws Exception {
    Scope scope = Scope.user("same");
    List<MemoryEvent> events = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Callable<Void>> workers = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (int t = 0; t < THREADS; t++) {
      workers.add(() -> {
        start.await();
        for (int i = 0; i < 5; i++) {
          events.addAll(memory.add(AddRequest.builder(scope).user("I go climbing on Tuesdays").build()).events());
        }
        return null;
      });
    }
    runAll(workers, start);

    assertThat(events).hasSize(THREADS * 5);
    assertThat(events).filteredOn(e -> e.event() == EventType.ADD).hasSize(1);
    assertThat(events).filteredOn(e -> e.event() == EventType.NOOP).hasSize(THREADS * 5 - 1);
    assertThat(events).extracting(MemoryEvent::id).containsOnly(events.get(0).id());
    assertThat(texts(scope)).containsExactly("I go climbing on Tuesdays");
  }

  private static void runAll(List<Callable<Void>> workers, CountDownLatch start) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(workers.size());
    try {
      List<Future<Void>> futures = new ArrayList<>();
      for (Callable<Void> w : workers) {
        futures.add(pool.submit(w));
      }
      start.countDown();
      for (Future<Void> f : futures) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}

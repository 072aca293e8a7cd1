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

/**
 * Contract: many threads adding and searching in their own and in a shared scope lose no write and
 * fail never.
 */
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
      workers.add(
          () -> {
            start.await();
            Scope own = Scope.user("worker-" + thread);
            for (int i = 0; i < ADDS_PER_THREAD; i++) {
              String ownToken = "own" + thread + "x" + i;
              String ownId = addAndRemember(own, "private note " + ownToken, textById);
              assertThat(
                      ids(
                          memory
                              .search(SearchRequest.builder(own, ownToken).topK(5).build())
                              .hits()))
                  .as("read your own write %s", ownToken)
                  .contains(ownId);
              String sharedToken = "shared" + thread + "x" + i;
              String sharedId = addAndRemember(SHARED, "shared note " + sharedToken, textById);
              assertThat(
                      ids(
                          memory
                              .search(SearchRequest.builder(SHARED, sharedToken).topK(5).build())
                              .hits()))
                  .as("read your own write %s", sharedToken)
                  .contains(sharedId);
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
    textById.forEach(
        (id, text) ->
            assertThat(memory.get(id))
                .as(id)
                .hasValueSatisfying(m -> assertThat(m.text()).isEqualTo(text)));
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
      workers.add(
          () -> {
            start.await();
            for (int i = 0; i < 5; i++) {
              events.addAll(
                  memory
                      .add(AddRequest.builder(scope).user("I go climbing on Tuesdays").build())
                      .events());
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

  /**
   * Two threads add batches over the same scopes in opposite orders; with inference on, each
   * request of a batch needs its scope's lock. Locks taken in request order deadlock here; the
   * bounded wait fails the test instead of hanging it.
   */
  @Test
  void oppositeOrderBatchesDoNotDeadlock() throws Exception {
    List<Scope> scopes =
        List.of(
            Scope.user("batch-a"),
            Scope.user("batch-b"),
            Scope.user("batch-c"),
            Scope.agent("batch-d"));
    int rounds = 25;
    Map<String, Scope> added = new ConcurrentHashMap<>();
    List<Callable<Void>> workers = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (int t = 0; t < 2; t++) {
      List<Scope> order = new ArrayList<>(scopes);
      if (t == 1) {
        java.util.Collections.reverse(order);
      }
      int thread = t;
      workers.add(
          () -> {
            start.await();
            for (int i = 0; i < rounds; i++) {
              List<AddRequest> batch = new ArrayList<>();
              for (Scope s : order) {
                batch.add(
                    AddRequest.builder(s)
                        .user("Thread " + thread + " visited city number " + i)
                        .build());
              }
              List<dev.engram.AddResult> results = memory.addBatch(batch);
              assertThat(results).hasSize(order.size());
              for (int r = 0; r < results.size(); r++) {
                for (MemoryEvent e : results.get(r).events()) {
                  if (e.event() == EventType.ADD) {
                    added.put(e.id(), order.get(r));
                  }
                }
              }
            }
            return null;
          });
    }
    runAll(workers, start);

    assertThat(added).as("the batches added memories").isNotEmpty();
    for (Scope s : scopes) {
      List<String> expected =
          added.entrySet().stream()
              .filter(e -> e.getValue().equals(s))
              .map(Map.Entry::getKey)
              .toList();
      assertThat(memory.list(dev.engram.ListRequest.of(s).withPage(0, 1000)).items())
          .as("memories of %s", s)
          .extracting(dev.engram.MemoryItem::id)
          .containsExactlyInAnyOrderElementsOf(expected);
    }
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

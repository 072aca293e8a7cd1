package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.EngramException;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.spi.Embedder;
import dev.engram.spi.ForwardingEmbedder;
import dev.engram.spi.MemoryStore;
import dev.engram.testing.HashEmbedder;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search embeds its query on another thread while it reads its keyword lists, which need only the
 * query's words; an embedder's failure fails the search as the embedder threw it, and is not taken
 * for the index's. The embedder is the hash test embedder (a fake) with a scripted wait or failure;
 * the record and the index are a real data directory, the index wrapped to see its keyword reads
 * ({@link FaultySearchIndex}).
 */
class SearchQueryEmbeddingTest {
  private static final Scope ALICE = Scope.user("alice");

  @TempDir Path dir;

  /**
   * What the scripted embedder does with a query: nothing more, wait for a keyword read, or fail.
   */
  private final AtomicReference<Runnable> onQuery = new AtomicReference<>(() -> {});

  /** Runs on the reading thread before each metadata read of the record. */
  private final AtomicReference<Runnable> onMetadata = new AtomicReference<>(() -> {});

  private FaultySearchIndex index;

  @Test
  void withAQuickEmbedderTheSearchThreadReadsItsKeywordListsItself() {
    try (Memory memory = open()) {
      String id = add(memory, "I keep three beehives in the orchard");
      List<Thread> keywordThreads = new CopyOnWriteArrayList<>();
      index.onKeyword(() -> keywordThreads.add(Thread.currentThread()));
      for (int i = 0; i < 10; i++) {
        assertThat(memory.search(SearchRequest.builder(ALICE, "beehives").build()).hits())
            .extracting(h -> h.memory().id())
            .containsExactly(id);
      }
      assertThat(keywordThreads).isNotEmpty().containsOnly(Thread.currentThread());
    }
  }

  @Test
  void theKeywordListsAreReadWhileTheScriptedEmbedderEmbedsTheQuery() {
    try (Memory memory = open()) {
      String id = add(memory, "I keep three beehives in the orchard");
      slowQueries(memory);
      CountDownLatch keywordRead = new CountDownLatch(1);
      AtomicReference<Thread> keywordThread = new AtomicReference<>();
      index.onKeyword(
          () -> {
            keywordThread.compareAndSet(null, Thread.currentThread());
            keywordRead.countDown();
          });
      AtomicReference<Boolean> readBeforeVector = queriesWaitFor(keywordRead);

      assertThat(memory.search(SearchRequest.builder(ALICE, "beehives orchard").build()).hits())
          .extracting(h -> h.memory().id())
          .containsExactly(id);
      assertThat(readBeforeVector.get()).isTrue();
      assertThat(keywordThread.get()).isNotSameAs(Thread.currentThread());
    }
  }

  /**
   * Under the default ranking the keyword candidates' metadata (which the steps passages and facts
   * read for every fused candidate) is read before the query's vector is needed.
   */
  @Test
  void theKeywordCandidatesMetadataIsReadWhileTheScriptedEmbedderEmbedsTheQuery() {
    try (Memory memory = open()) {
      String id = add(memory, "I keep three beehives in the orchard");
      add(memory, "The orchard has twelve apple trees");
      slowQueries(memory);
      CountDownLatch metadataRead = new CountDownLatch(1);
      onMetadata.set(metadataRead::countDown);
      AtomicReference<Boolean> readBeforeVector = queriesWaitFor(metadataRead);

      assertThat(memory.search(SearchRequest.builder(ALICE, "beehives").build()).hits())
          .extracting(h -> h.memory().id())
          .startsWith(id);
      assertThat(readBeforeVector.get()).isTrue();
    }
  }

  @Test
  void aFailingScriptedEmbedderFailsTheSearchAndRecreatesNoIndex() {
    try (Memory memory = open()) {
      String id = add(memory, "I keep three beehives in the orchard");
      slowQueries(memory); // the failing search's keyword lists are read on another thread
      onQuery.set(
          () -> {
            throw new EngramException("scripted embedder failure");
          });

      assertThatThrownBy(() -> memory.search(SearchRequest.builder(ALICE, "beehives").build()))
          .isInstanceOf(EngramException.class)
          .hasMessage("scripted embedder failure");
      assertThat(index.recreated()).isZero();
      assertThat(dir.resolve("index.broken")).doesNotExist();

      onQuery.set(() -> {});
      assertThat(memory.search(SearchRequest.builder(ALICE, "beehives").build()).hits())
          .extracting(h -> h.memory().id())
          .containsExactly(id);
    }
  }

  /**
   * Searches with the scripted embedder taking 3 ms a query, as an in-process model does, until its
   * keyword lists are read on another thread.
   */
  private void slowQueries(Memory memory) {
    onQuery.set(
        () -> {
          try {
            Thread.sleep(3);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    for (int i = 0; i < 8; i++) {
      memory.search(SearchRequest.builder(ALICE, "warming up").build());
    }
  }

  /**
   * Makes the scripted embedder wait (up to 10 s) for {@code read} before it embeds a query; the
   * answer holds whether {@code read} came first. A search that read it only after the vector would
   * leave the answer false.
   */
  private AtomicReference<Boolean> queriesWaitFor(CountDownLatch read) {
    AtomicReference<Boolean> readBeforeVector = new AtomicReference<>();
    onQuery.set(
        () -> {
          try {
            readBeforeVector.set(read.await(10, TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    return readBeforeVector;
  }

  private static String add(Memory memory, String text) {
    return memory
        .add(AddRequest.builder(ALICE).user(text).infer(false).build())
        .events()
        .get(0)
        .id();
  }

  private Memory open() {
    EmbeddedStorage storage = EmbeddedStorage.open(dir, 64);
    index = FaultySearchIndex.around(storage);
    Embedder scripted =
        new ForwardingEmbedder(new HashEmbedder()) {
          @Override
          public float[] embedQuery(String text) {
            onQuery.get().run();
            return delegate.embedQuery(text);
          }
        };
    MemoryStore records = storage.records();
    MemoryStore seen =
        (MemoryStore)
            Proxy.newProxyInstance(
                MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class},
                (proxy, method, args) -> {
                  if (method.getName().equals("metadata")) {
                    onMetadata.get().run();
                  }
                  try {
                    return method.invoke(records, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
    return Engram.builder().storage(index.in(storage, seen)).embedder(scripted).build();
  }
}

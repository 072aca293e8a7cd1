package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.spi.ScopeLease;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Engram instances on one PostgreSQL schema, each with its own connection pool, as two
 * processes would be: infer adds to one scope are serialised across them (no fact added twice),
 * every acknowledged write is visible through both at once (no per-instance cache), and the scope
 * lock blocks the other instance while it is held.
 */
class PostgresMultiInstanceTest {
  private static final Scope ALICE = Scope.user("alice");

  @TempDir Path dir;

  /**
   * The plain-array path; {@link NativePgvectorMultiInstanceTest} runs these tests on the pgvector
   * path.
   */
  PostgresSettings settingsFor(Path dir) {
    return PostgresCluster.get().settingsFor(dir);
  }

  private PostgresStorage storageA;
  private PostgresStorage storageB;
  private Memory a;
  private Memory b;

  @BeforeEach
  void open() {
    PostgresSettings settings = settingsFor(dir);
    storageA = PostgresStorage.open(settings, 64);
    storageB = PostgresStorage.open(settings, 64);
    assertThat(List.of(storageA.vectors(), storageB.vectors()))
        .as("the vector path")
        .containsOnly(settings.vectors());
    a = Engram.builder().storage(storageA).embedder(new HashEmbedder()).build();
    b = Engram.builder().storage(storageB).embedder(new HashEmbedder()).build();
  }

  @AfterEach
  void close() {
    a.close();
    b.close();
  }

  @Test
  void inferAddsOfTheSameFactsThroughBothInstancesAddEachOnce() throws Exception {
    List<String> facts =
        List.of(
            "I play the cello",
            "My sister lives in Lisbon",
            "I am allergic to peanuts",
            "I work as a nurse",
            "My cat is called Miso");
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> adds = new ArrayList<>();
      for (int round = 0; round < 3; round++) {
        for (String fact : facts) {
          for (Memory m : List.of(a, b)) {
            adds.add(
                pool.submit(() -> m.add(AddRequest.builder(ALICE).user(fact).infer(true).build())));
          }
        }
      }
      for (Future<?> f : adds) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    List<String> texts =
        a.list(ListRequest.of(ALICE).withPage(0, 100)).items().stream()
            .map(MemoryItem::text)
            .toList();
    assertThat(texts).hasSize(facts.size()).doesNotHaveDuplicates();
    assertThat(b.list(ListRequest.of(ALICE).withPage(0, 100)).items())
        .extracting(MemoryItem::text)
        .containsExactlyInAnyOrderElementsOf(texts);
  }

  @Test
  void everyAcknowledgedWriteIsVisibleThroughBothInstances() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        Memory m = w % 2 == 0 ? a : b;
        Scope scope = Scope.user("writer-" + w);
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 15; i++) {
                    String id =
                        m.add(
                                AddRequest.builder(scope)
                                    .user("token" + writer + "x" + i + " written concurrently")
                                    .infer(false)
                                    .build())
                            .events()
                            .get(0)
                            .id();
                    acknowledged.add(id);
                    Memory other = m == a ? b : a;
                    assertThat(other.get(id))
                        .as("written through one instance, read through the other")
                        .isPresent();
                    assertThat(
                            other
                                .search(
                                    SearchRequest.builder(scope, "token" + writer + "x" + i)
                                        .build())
                                .hits())
                        .extracting(h -> h.memory().id())
                        .first()
                        .isEqualTo(id);
                  }
                  return null;
                }));
      }
      for (Future<?> f : writers) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(acknowledged).hasSize(60).doesNotHaveDuplicates();
    Set<Long> seqs = new HashSet<>();
    for (String id : acknowledged) {
      assertThat(a.get(id)).isPresent();
      seqs.add(b.history(id).get(0).seq());
    }
    assertThat(seqs).hasSize(60);
    assertThat(storageA.records().lastSeq())
        .isEqualTo(storageB.records().lastSeq())
        .isEqualTo(seqs.stream().mapToLong(Long::longValue).max().orElseThrow());
  }

  @Test
  void aHeldScopeLockMakesTheOtherInstanceWait() throws Exception {
    AtomicBoolean acquired = new AtomicBoolean();
    CompletableFuture<Void> second;
    try (ScopeLease held = storageA.lockScope("default", ALICE)) {
      second =
          CompletableFuture.runAsync(
              () -> {
                try (ScopeLease lease = storageB.lockScope("default", ALICE)) {
                  acquired.set(true);
                }
              });
      awaitAdvisoryLockWaiter();
      assertThat(acquired).isFalse();
      try (ScopeLease other = storageB.lockScope("default", Scope.user("bob"))) {
        assertThat(other).isNotNull(); // another scope is not blocked
      }
    }
    second.get();
    assertThat(acquired).isTrue();
  }

  /**
   * Polls pg_locks until some backend waits for an advisory lock (the other instance's lockScope).
   */
  private static void awaitAdvisoryLockWaiter() throws Exception {
    try (Connection c = PostgresCluster.get().connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")) {
      for (int i = 0; i < 600; i++) {
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          if (rs.getLong(1) > 0) {
            return;
          }
        }
        Thread.sleep(50);
      }
    }
    throw new AssertionError("the second instance never waited for the scope lock");
  }
}

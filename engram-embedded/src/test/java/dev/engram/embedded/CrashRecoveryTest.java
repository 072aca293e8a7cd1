package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Ranking;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.Tenants;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.testing.HashEmbedder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 at random moments: a child JVM ({@link CrashWriter}) writes memories and acknowledges
 * each completed write on stdout; the test kills it with SIGKILL after a random number of
 * acknowledgements, reopens the data directory, and checks that no acknowledged write was lost and
 * that the index agrees with the record. Repeated {@value #ROUNDS} times on the same directory. The
 * seed is printed; rerun one with {@code -Dengram.crash.seed=}.
 */
class CrashRecoveryTest {
  private static final int ROUNDS = 20;
  private static final String GONE = "<deleted>";

  @TempDir Path tmp;

  /**
   * Per memory id: the states it may be in (texts, or {@link #GONE}); more than one while a write
   * was in flight.
   */
  private final Map<String, Set<String>> allowed = new LinkedHashMap<>();

  private final Map<String, String> lastText = new HashMap<>();
  private long seed;

  @Test
  void acknowledgedWritesSurviveSigkill() throws Exception {
    seed = Long.getLong("engram.crash.seed", System.nanoTime());
    System.out.println("CrashRecoveryTest seed=" + seed);
    Random random = new Random(seed);
    Path dir = tmp.resolve("engram-data");
    int totalAcks = 0;
    for (int round = 1; round <= ROUNDS; round++) {
      int target = 1 + random.nextInt(30);
      long t0 = System.nanoTime();
      int acks = runChild(dir, round, target, random.nextLong());
      long t1 = System.nanoTime();
      verify(dir, round);
      System.out.printf(
          "round %d: killed after %d acks (target %d); child %d ms, verify %d ms%n",
          round, acks, target, (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000);
      totalAcks += acks;
    }
    System.out.println(
        "CrashRecoveryTest acks="
            + totalAcks
            + " memories="
            + allowed.values().stream().filter(s -> !s.contains(GONE)).count());
    assertThat(totalAcks).isGreaterThanOrEqualTo(ROUNDS);
  }

  /**
   * Runs one child until {@code target} acknowledgements, kills it, and returns the
   * acknowledgements read.
   */
  private int runChild(Path dir, int round, int target, long childSeed) throws Exception {
    Process child =
        ChildJvm.start(
            tmp,
            CrashWriter.class,
            dir.toString(),
            Integer.toString(round),
            Long.toString(childSeed));
    AtomicBoolean timedOut = new AtomicBoolean();
    ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
    watchdog.schedule(
        () -> {
          timedOut.set(true);
          child.destroyForcibly();
        },
        60,
        TimeUnit.SECONDS);
    int acks = 0;
    boolean killed = false;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("ACK ")) {
          acks++;
        }
        apply(line);
        if (!killed && acks >= target) {
          // SIGKILL through the process handle: unlike Process.destroyForcibly() it leaves our end
          // of the pipe
          // open, so the lines the child printed before it died can still be read.
          child.toHandle().destroyForcibly();
          killed = true;
        }
      }
    } finally {
      watchdog.shutdownNow();
      child.destroyForcibly();
      child.waitFor();
    }
    assertThat(timedOut).as("seed %d round %d: the child hung", seed, round).isFalse();
    assertThat(killed)
        .as(
            "seed %d round %d: the child exited by itself; stderr:%n%s",
            seed, round, ChildJvm.stderr(tmp))
        .isTrue();
    return acks;
  }

  private void apply(String line) {
    String[] p = line.split(" ", 4);
    switch (p[0]) {
      case "READY":
        return;
      case "TRY":
        allowed.get(p[2]).add(p[1].equals("delete") ? GONE : p[3]);
        return;
      case "ACK":
        allowed.put(p[2], new HashSet<>(Set.of(p[1].equals("delete") ? GONE : p[3])));
        if (!p[1].equals("delete")) {
          lastText.put(p[2], p[3]);
        }
        return;
      default:
        throw new AssertionError("seed " + seed + ": unexpected line from the child: " + line);
    }
  }

  private void verify(Path dir, int round) {
    EmbeddedStorage storage = EmbeddedStorage.open(dir, 64);
    // Reciprocal rank fusion: the checks below find each memory by a token only it holds, which
    // its rank in the keyword list gives; the hash embedder's cosines are noise, and the default
    // cosine-led fusion would let them decide (a seed failed so).
    try (Memory memory =
        Engram.builder().storage(storage).embedder(new HashEmbedder()).fusion(Fusion.RRF).build()) {
      String where = "seed " + seed + " round " + round;
      // Every acknowledged write is there (or, for a write in flight at the kill, its before or
      // after state).
      allowed.forEach(
          (id, states) -> {
            String actual = memory.get(id).map(MemoryItem::text).orElse(GONE);
            assertThat(states).as("%s: memory %s is '%s'", where, id, actual).contains(actual);
          });
      // The index agrees with the record: same documents per scope, every memory found by its
      // unique token,
      // and no deleted memory left in the index.
      Map<String, MemoryItem> stored = new HashMap<>();
      for (Scope scope : CrashWriter.SCOPES) {
        Map<String, MemoryItem> inScope = listAll(memory, scope);
        stored.putAll(inScope);
        IndexQuery q =
            new IndexQuery(
                Tenants.DEFAULT, scope, Filter.all(), true, LocalDate.now(ZoneOffset.UTC));
        Set<String> indexed = new HashSet<>();
        storage
            .index()
            .dense(
                q,
                IndexField.TEXT,
                new HashEmbedder().embedQuery("note about"),
                inScope.size() + 10)
            .forEach(c -> indexed.add(c.id()));
        assertThat(indexed)
            .as("%s: index documents of %s", where, scope)
            .isEqualTo(inScope.keySet());
        for (MemoryItem m : inScope.values()) {
          String token = m.text().split(" ")[1];
          // Without the ranking steps: the memories after this one in its scope hold its text in
          // their source
          // contexts, and the hash embedder's dense list (mostly ties) could not put this one above
          // them.
          assertThat(
                  memory
                      .search(
                          SearchRequest.builder(scope, token).topK(3).ranking(Ranking.NONE).build())
                      .hits())
              .as("%s: search for %s", where, token)
              .anySatisfy(h -> assertThat(h.memory().id()).isEqualTo(m.id()));
        }
      }
      checkDeletedAreNotIndexed(storage.index(), stored.keySet(), where);
      assertThat(storage.index().state().documents())
          .as(where)
          .isEqualTo(storage.records().count());
      assertThat(storage.records().count()).as(where).isEqualTo(stored.size());
      // Learn the outcome of writes that were in flight, and of adds that were committed but not
      // acknowledged.
      allowed.replaceAll(
          (id, states) ->
              new HashSet<>(Set.of(stored.containsKey(id) ? stored.get(id).text() : GONE)));
      stored.forEach(
          (id, m) -> {
            allowed.put(id, new HashSet<>(Set.of(m.text())));
            lastText.put(id, m.text());
          });
    }
  }

  /** The last known text of every memory the record no longer holds finds nothing in the index. */
  private void checkDeletedAreNotIndexed(SearchIndex index, Set<String> stored, String where) {
    for (String id : allowed.keySet()) {
      if (stored.contains(id) || !lastText.containsKey(id)) {
        continue;
      }
      String token = lastText.get(id).split(" ")[1];
      for (Scope scope : CrashWriter.SCOPES) {
        IndexQuery q =
            new IndexQuery(
                Tenants.DEFAULT, scope, Filter.all(), true, LocalDate.now(ZoneOffset.UTC));
        assertThat(index.keyword(q, IndexField.TEXT, token, 5))
            .as("%s: deleted %s still in the index", where, id)
            .noneSatisfy(c -> assertThat(c.id()).isEqualTo(id));
      }
    }
  }

  private static Map<String, MemoryItem> listAll(Memory memory, Scope scope) {
    Map<String, MemoryItem> out = new LinkedHashMap<>();
    int offset = 0;
    while (true) {
      Page<MemoryItem> page =
          memory.list(ListRequest.of(scope).withPage(offset, 1000).withIncludeExpired(true));
      page.items().forEach(m -> out.put(m.id(), m));
      if (!page.hasMore()) {
        return out;
      }
      offset += page.items().size();
    }
  }
}

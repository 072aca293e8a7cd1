package dev.engram.bench.scale;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.bench.scale.ScaleReport.Latency;
import dev.engram.spi.Embedder;
import dev.engram.spi.Storage;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.function.LongConsumer;

/**
 * The scale benchmark: fills a fresh data directory with synthetic memories ({@link
 * SyntheticMemories}) spread evenly over a number of users, then measures what an application sees
 * at that size: ingest rate, search and list latency at a fixed number of memories per user, heap
 * in use, size on disk, and the time to reopen the directory (including the engine's check of the
 * index against the record).
 *
 * <p>Memory {@code i} (from 0) belongs to user {@code i mod users}, so every batch touches many
 * users, as a shared server would see them; each is added verbatim ({@code infer=false}) as one
 * user message with its event time and metadata, {@code batch} requests per {@link Memory#addBatch}
 * (one transaction each).
 *
 * <p>Timings are measured in this JVM with {@link System#nanoTime()}; searches and lists are
 * measured after a warm-up of {@value #WARM_UP} calls that are not counted. Searches are timed
 * twice with the same queries: right after ingesting, while the index may still be merging segments
 * in the background (as a live system sees it after a bulk load), and again after reopening, on the
 * settled index. The run is deterministic except for timings.
 */
public final class ScaleBench {
  /** Searches and lists run before measuring, to warm up the JIT and caches. */
  public static final int WARM_UP = 200;

  /** Per-user counts are checked for at most this many users (evenly spaced) after reopening. */
  public static final int MAX_CHECKED_USERS = 10_000;

  /**
   * Settings of one run.
   *
   * @param memories how many memories to ingest (at least 1)
   * @param users how many users to spread them over (1 to {@code memories})
   * @param dataDir the data directory; must be absent or empty
   * @param batch requests per {@code addBatch} (1 to 10,000)
   * @param queries searches and lists to measure (at least 1)
   * @param topK results per search (1 to {@link SearchRequest#MAX_TOP_K})
   * @param seed the seed of the text generator and of the query users
   */
  public record Options(
      long memories, int users, Path dataDir, int batch, int queries, int topK, long seed) {
    public Options {
      Objects.requireNonNull(dataDir, "dataDir");
      if (memories < 1) {
        throw new IllegalArgumentException("memories must be at least 1, got " + memories);
      }
      if (users < 1 || users > memories) {
        throw new IllegalArgumentException(
            "users must be between 1 and memories (" + memories + "), got " + users);
      }
      if (batch < 1 || batch > 10_000) {
        throw new IllegalArgumentException("batch must be between 1 and 10000, got " + batch);
      }
      if (queries < 1) {
        throw new IllegalArgumentException("queries must be at least 1, got " + queries);
      }
      if (topK < 1 || topK > SearchRequest.MAX_TOP_K) {
        throw new IllegalArgumentException(
            "topK must be between 1 and " + SearchRequest.MAX_TOP_K + ", got " + topK);
      }
    }

    /** Defaults for the rest: batch 1000, 1000 queries, top 10, seed 42. */
    public static Options of(long memories, int users, Path dataDir) {
      return new Options(memories, users, dataDir, 1000, 1000, 10, 42);
    }
  }

  private ScaleBench() {}

  /**
   * Runs the benchmark. The data directory is left in place (the caller deletes it if it wants).
   *
   * @param progress receives the number of memories ingested so far, after every batch
   * @throws IllegalArgumentException if the data directory is not empty
   */
  public static ScaleReport run(Options o, Embedder embedder, LongConsumer progress) {
    return run(o, embedder, new EmbeddedBenchStore(o.dataDir()), progress);
  }

  /**
   * Runs the benchmark on {@code store} ({@link EmbeddedBenchStore} in {@code o.dataDir()}, or a
   * PostgreSQL schema); the store is left filled (the caller deletes it if it wants).
   *
   * @param progress receives the number of memories ingested so far, after every batch
   * @throws IllegalArgumentException if the store is not empty
   */
  // The memory is closed inside its try to time the close; the try's own close is then a no-op.
  @SuppressWarnings("try")
  public static ScaleReport run(
      Options o, Embedder embedder, BenchStore store, LongConsumer progress) {
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(progress, "progress");
    store.requireEmpty();
    String[] users = userIds(o.users());
    ScaleReport.Ingest ingest;
    Searches search;
    Latency list;
    double heapMib;
    double closeMs;
    try (Memory memory =
        Engram.builder().storage(store.open(embedder.dimension())).embedder(embedder).build()) {
      ingest = ingest(memory, o, users, progress);
      search = searches(memory, users, o);
      Random random = new Random(o.seed() + 1);
      for (int i = 0; i < WARM_UP; i++) {
        memory.list(ListRequest.of(Scope.user(users[random.nextInt(users.length)])));
      }
      list =
          measure(
              o.queries(),
              () -> memory.list(ListRequest.of(Scope.user(users[random.nextInt(users.length)]))));
      heapMib = heapUsedAfterGcMib();
      long t0 = System.nanoTime();
      memory.close();
      closeMs = millisSince(t0);
    }
    ScaleReport.Disk disk = store.size(o.memories());
    long t0 = System.nanoTime();
    Storage storage = store.open(embedder.dimension());
    try (Memory memory = Engram.builder().storage(storage).embedder(embedder).build()) {
      double reopenMs = millisSince(t0);
      long t1 = System.nanoTime();
      search(memory, users[0], new SyntheticMemories(o.seed() + 3).query(), o.topK());
      double firstSearchMs = millisSince(t1);
      Searches settled = searches(memory, users, o);
      ScaleReport.Reopen reopen =
          new ScaleReport.Reopen(
              ScaleReport.round(reopenMs),
              storage.records().count(),
              storage.index().state().documents(),
              ScaleReport.round(firstSearchMs),
              settled.latency());
      ScaleReport.PerUser perUser = countPerUser(memory, users);
      Runtime rt = Runtime.getRuntime();
      ScaleReport.Machine machine =
          new ScaleReport.Machine(
              rt.availableProcessors(),
              ScaleReport.round(rt.maxMemory() / (1024.0 * 1024.0)),
              System.getProperty("java.version"));
      return new ScaleReport(
          store.name(),
          o.memories(),
          o.users(),
          o.memories() / o.users(),
          o.batch(),
          o.topK(),
          embedder.modelId(),
          o.seed(),
          machine,
          ingest,
          search.latency(),
          ScaleReport.round(search.hitsMean()),
          list,
          ScaleReport.round(heapMib),
          ScaleReport.round(closeMs),
          disk,
          reopen,
          perUser);
    }
  }

  /**
   * Searches a store that an earlier {@link #run} with the same memories, users and seed filled and
   * left in place, without ingesting again: the "after reopen" half of a run (open, first search,
   * {@value #WARM_UP} warm-up and {@code o.queries()} timed searches of the same sequence), for
   * measuring a new search path on data too large to load twice.
   *
   * @throws IllegalArgumentException if the store does not hold exactly {@code o.memories()}
   *     memories
   */
  public static ScaleReport.Reopen searchFilled(Options o, Embedder embedder, BenchStore store) {
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(store, "store");
    String[] users = userIds(o.users());
    long t0 = System.nanoTime();
    Storage storage = store.open(embedder.dimension());
    try (Memory memory = Engram.builder().storage(storage).embedder(embedder).build()) {
      double openMs = millisSince(t0);
      long held = storage.records().count();
      if (held != o.memories()) {
        throw new IllegalArgumentException(
            "the "
                + store.name()
                + " store holds "
                + held
                + " memories, not the "
                + o.memories()
                + " of --memories: fill it with a run of the same options first");
      }
      long t1 = System.nanoTime();
      search(memory, users[0], new SyntheticMemories(o.seed() + 3).query(), o.topK());
      double firstSearchMs = millisSince(t1);
      Searches settled = searches(memory, users, o);
      return new ScaleReport.Reopen(
          ScaleReport.round(openMs),
          held,
          storage.index().state().documents(),
          ScaleReport.round(firstSearchMs),
          settled.latency());
    }
  }

  /** Search latencies and the mean number of hits per search. */
  private record Searches(Latency latency, double hitsMean) {}

  /**
   * Runs {@value #WARM_UP} searches, then times {@code queries} more; users and query texts follow
   * a sequence fixed by the seed, the same at every call.
   */
  private static Searches searches(Memory memory, String[] users, Options o) {
    Random random = new Random(o.seed() + 1);
    SyntheticMemories queries = new SyntheticMemories(o.seed() + 2);
    for (int i = 0; i < WARM_UP; i++) {
      search(memory, users[random.nextInt(users.length)], queries.query(), o.topK());
    }
    long[] hits = {0};
    Latency latency =
        measure(
            o.queries(),
            () ->
                hits[0] +=
                    search(memory, users[random.nextInt(users.length)], queries.query(), o.topK()));
    return new Searches(latency, (double) hits[0] / o.queries());
  }

  /** User ids {@code user-0000000} and up, fixed width so that they sort in number order. */
  static String[] userIds(int users) {
    String[] ids = new String[users];
    for (int i = 0; i < users; i++) {
      ids[i] = String.format("user-%07d", i);
    }
    return ids;
  }

  private static ScaleReport.Ingest ingest(
      Memory memory, Options o, String[] users, LongConsumer progress) {
    SyntheticMemories generator = new SyntheticMemories(o.seed());
    int batches = (int) ((o.memories() + o.batch() - 1) / o.batch());
    double[] batchMs = new double[batches];
    long start = System.nanoTime();
    long done = 0;
    for (int b = 0; b < batches; b++) {
      int size = (int) Math.min(o.batch(), o.memories() - done);
      List<AddRequest> requests = new ArrayList<>(size);
      for (int j = 0; j < size; j++) {
        SyntheticMemories.Fact f = generator.next();
        requests.add(
            AddRequest.builder(Scope.user(users[(int) ((done + j) % users.length)]))
                .message(new Message(Role.USER, f.text(), null, f.eventTime(), null))
                .metadata(f.metadata())
                .infer(false)
                .build());
      }
      long t0 = System.nanoTime();
      memory.addBatch(requests);
      batchMs[b] = millisSince(t0);
      done += size;
      progress.accept(done);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    return new ScaleReport.Ingest(
        ScaleReport.round(seconds), ScaleReport.round(o.memories() / seconds), Latency.of(batchMs));
  }

  private static int search(Memory memory, String user, String query, int topK) {
    return memory
        .search(SearchRequest.builder(Scope.user(user), query).topK(topK).build())
        .hits()
        .size();
  }

  private static Latency measure(int calls, Runnable call) {
    double[] ms = new double[calls];
    for (int i = 0; i < calls; i++) {
      long t0 = System.nanoTime();
      call.run();
      ms[i] = millisSince(t0);
    }
    return Latency.of(ms);
  }

  private static ScaleReport.PerUser countPerUser(Memory memory, String[] users) {
    int step = Math.max(1, (users.length + MAX_CHECKED_USERS - 1) / MAX_CHECKED_USERS);
    long min = Long.MAX_VALUE;
    long max = 0;
    long total = 0;
    int checked = 0;
    for (int i = 0; i < users.length; i += step) {
      long n = memory.list(ListRequest.of(Scope.user(users[i])).withPage(0, 1)).total();
      min = Math.min(min, n);
      max = Math.max(max, n);
      total += n;
      checked++;
    }
    return new ScaleReport.PerUser(checked, min, max, total);
  }

  private static double heapUsedAfterGcMib() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
  }

  private static double millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e6;
  }
}

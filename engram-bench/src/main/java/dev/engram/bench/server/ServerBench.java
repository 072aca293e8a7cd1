package dev.engram.bench.server;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SuppressForbidden;
import dev.engram.ValidationException;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.locomo.LocomoReader;
import dev.engram.bench.scale.DataDirectories;
import dev.engram.bench.server.HttpLoadClient.Job;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import dev.engram.spi.Embedder;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

/**
 * {@code engram bench server}: what the REST server costs over the engine. One LoCoMo
 * conversation's turns are imported (infer=false) into a fresh embedded memory, an {@link
 * EngramServer} serves it on 127.0.0.1 with an API key, and the same work is timed directly on the
 * {@link Memory} and through the server. The HTTP clients run in a JVM of their own ({@link
 * HttpLoadClient}: kept-alive connections, each request written in one piece, answers read but not
 * parsed), so that the figures are the server's cost and not a client's sharing the server's JVM:
 *
 * <ol>
 *   <li>warm-up: {@code warmUp} searches each way from one client, then as many from {@code
 *       clients} clients (over HTTP from the load tool that times the rates, so that its concurrent
 *       request path is compiled too, as a running server's is);
 *   <li>one client: {@code latencySearches} searches of the conversation's questions in turn, one
 *       after another as a busy client sends them, in process and over HTTP in alternating blocks
 *       (a quarter each); latency percentiles of each and the difference;
 *   <li>throughput: {@code clients} concurrent clients searching until {@code throughputSearches}
 *       are done, each way;
 *   <li>add warm-up: {@code addWarmUp} adds each way from one client, then as many from {@code
 *       clients} clients, into scopes of their own (the add path's request handling, event writes
 *       and index updates compiled before they are timed, as the searches' are);
 *   <li>adds with infer=false of single turns, one client (rates and latencies) and {@code clients}
 *       clients, each way (into scopes of their own).
 * </ol>
 *
 * The rates are measured in alternating blocks (in process, then HTTP, four times), so that a
 * change in the machine's load falls on both ways alike. Single-threaded setup; not thread-safe.
 */
public final class ServerBench {
  private static final int IMPORT_BATCH = 100;

  /** Blocks each way of the throughput and add measurements. */
  private static final int BLOCKS = 4;

  private ServerBench() {}

  /**
   * What sends the concurrent clients' requests. The one-client figures always come from the
   * bench's client JVM, which times each request.
   */
  public enum LoadTool {
    /** The bench's client JVM ({@link HttpLoadClient}), one thread per client. */
    JVM,
    /**
     * wrk ({@link WrkLoad}), one C thread for every connection: it takes little of the cores the
     * server runs on, so the rates measure the server.
     */
    WRK;

    /** The name the command line and the report use. */
    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * What to run.
   *
   * @param data a file in LoCoMo's format
   * @param conversation which conversation, from 1
   * @param turns turns to import, 0 for all
   * @param queries questions to time, 0 for all
   * @param topK results per search
   * @param warmUp searches each way before timing, from one client and again from {@code clients}
   * @param latencySearches one-client searches timed each way (the questions in turn)
   * @param clients concurrent clients for the throughput figures
   * @param throughputSearches searches timed each way with {@code clients} clients
   * @param adds adds timed each way and per client count
   * @param addWarmUp adds each way before the adds are timed, from one client and again from {@code
   *     clients}
   * @param dataDir an empty or new directory for the memory
   * @param load what sends the concurrent clients' requests
   */
  public record Options(
      Path data,
      int conversation,
      int turns,
      int queries,
      int topK,
      int warmUp,
      int latencySearches,
      int clients,
      int throughputSearches,
      int adds,
      int addWarmUp,
      Path dataDir,
      LoadTool load) {
    public Options {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(dataDir, "dataDir");
      Objects.requireNonNull(load, "load");
      positive("conversation", conversation);
      atLeast("turns", turns, 0);
      atLeast("queries", queries, 0);
      positive("top-k", topK);
      atLeast("warm-up", warmUp, 0);
      positive("latency-searches", latencySearches);
      positive("clients", clients);
      positive("searches", throughputSearches);
      positive("adds", adds);
      atLeast("add-warm-up", addWarmUp, 0);
      if (topK > SearchRequest.MAX_TOP_K) {
        throw new ValidationException(
            "top-k", "must be at most " + SearchRequest.MAX_TOP_K + ", got " + topK);
      }
    }

    private static void positive(String field, int value) {
      atLeast(field, value, 1);
    }

    private static void atLeast(String field, int value, int min) {
      if (value < min) {
        throw new ValidationException(field, "must be at least " + min + ", got " + value);
      }
    }
  }

  /** Runs the benchmark with an embedder; the data directory is left for the caller to delete. */
  public static ServerBenchReport run(Options o, Embedder embedder) {
    Objects.requireNonNull(embedder, "embedder");
    List<Conversation> all = LocomoReader.read(o.data());
    if (o.conversation() > all.size()) {
      throw new ValidationException(
          "conversation",
          "the file has " + all.size() + " conversation(s), not " + o.conversation());
    }
    Conversation c = all.get(o.conversation() - 1);
    List<AddRequest> turns = turns(c, o.turns());
    List<String> queries =
        c.questions().stream()
            .map(q -> q.question())
            .filter(q -> !q.isBlank())
            .limit(o.queries() == 0 ? Long.MAX_VALUE : o.queries())
            .toList();
    if (turns.isEmpty() || queries.isEmpty()) {
      throw new ValidationException(
          "data", "conversation " + c.sampleId() + " has no turns or no questions");
    }
    DataDirectories.requireEmpty(o.dataDir());
    Scope scope = Scope.user(c.sampleId());
    Clock clock = systemClock();
    try (Memory memory =
            Engram.builder()
                .clock(clock)
                .storage(EmbeddedStorage.at(o.dataDir()))
                .embedder(embedder)
                .build();
        ServerDatabase db = ServerDatabase.open(o.dataDir());
        SqliteApiKeyStore keys = new SqliteApiKeyStore(db, clock, false);
        SqliteAddEventStore events = new SqliteAddEventStore(db, false)) {
      long t0 = System.nanoTime();
      for (int i = 0; i < turns.size(); i += IMPORT_BATCH) {
        memory.addBatch(turns.subList(i, Math.min(turns.size(), i + IMPORT_BATCH)));
      }
      double importSeconds = (System.nanoTime() - t0) / 1e9;
      String key = keys.create(memory.tenant(), KeyRole.MEMBER, "bench").secret();
      EngramServer server =
          EngramServer.builder(memory)
              .settings(ServerSettings.builder().port(0).build())
              .keys(keys)
              .events(events)
              .build()
              .start();
      HttpLoadClient.Setup setup =
          new HttpLoadClient.Setup(
              "127.0.0.1",
              server.port(),
              key,
              queries,
              turns.stream().map(t -> t.messages().get(0).content()).toList());
      try (HttpLoadProcess http = HttpLoadProcess.start(setup)) {
        HttpBlock concurrent =
            o.load() == LoadTool.WRK
                ? WrkLoad.of(setup)::run
                : (job, inProcessSeconds) -> http.run(job);
        warmUp(memory, http, concurrent, scope, queries, o);
        ServerBenchReport.Latencies latency = searchLatency(memory, http, scope, queries, o);
        ServerBenchReport.Rates throughput =
            searchThroughput(memory, concurrent, scope, queries, o);
        warmUpAdds(memory, http, concurrent, turns, o);
        Timed[] one = addRuns(memory, (job, inProcessSeconds) -> http.run(job), turns, 1, o.adds());
        Timed[] many = addRuns(memory, concurrent, turns, o.clients(), o.adds());
        ServerBenchReport.Adds adds =
            new ServerBenchReport.Adds(
                rates(1, o.adds(), one),
                rates(o.clients(), o.adds(), many),
                ServerBenchReport.Latencies.of(one[0].millis(), one[1].millis()));
        Runtime rt = Runtime.getRuntime();
        return new ServerBenchReport(
            c.sampleId(),
            turns.size(),
            ServerBenchReport.round(importSeconds),
            embedder.modelId(),
            o.load().label(),
            o.topK(),
            queries.size(),
            new ServerBenchReport.Machine(
                rt.availableProcessors(), System.getProperty("java.version")),
            latency,
            throughput,
            adds);
      } finally {
        server.close();
      }
    }
  }

  /** One add per turn, infer=false, spoken by its speaker at its session's time. */
  private static List<AddRequest> turns(Conversation c, int limit) {
    List<AddRequest> out = new ArrayList<>();
    Scope scope = Scope.user(c.sampleId());
    for (Session s : c.sessions()) {
      for (Turn t : s.turns()) {
        if (t.text().isBlank() || (limit > 0 && out.size() >= limit)) {
          continue;
        }
        out.add(
            AddRequest.builder(scope)
                .messages(
                    List.of(Message.user(t.text()).withName(t.speaker()).withSourceId(t.diaId())))
                .timestamp(s.dateTime())
                .infer(false)
                .build());
      }
    }
    return out;
  }

  /**
   * Searches untimed, each way: from one client, then from the concurrent clients ({@link
   * #untimed}).
   */
  private static void warmUp(
      Memory memory,
      HttpLoadProcess http,
      HttpBlock concurrent,
      Scope scope,
      List<String> queries,
      Options o) {
    String user = scope.userId().orElseThrow();
    Operation search =
        i -> memory.search(request(scope, queries.get(i % queries.size()), o.topK()));
    untimed(
        http,
        concurrent,
        o.clients(),
        clients -> search,
        clients -> new Job("search", user, o.topK(), 0, o.warmUp(), clients),
        o.warmUp());
  }

  /**
   * Runs {@code n} operations untimed each way, from one client and then from {@code clients}: in
   * process ({@code inProcess} for a client count), then over HTTP ({@code overHttp}'s job; the
   * concurrent one from the load tool the rates come from, for as long as the same work took in
   * process), so that both request paths are compiled before anything is timed.
   */
  private static void untimed(
      HttpLoadProcess http,
      HttpBlock concurrent,
      int clients,
      IntFunction<Operation> inProcess,
      IntFunction<Job> overHttp,
      int n) {
    if (n == 0) {
      return;
    }
    concurrently(1, 0, n, inProcess.apply(1));
    http.run(overHttp.apply(1));
    Timed timed = concurrently(clients, 0, n, inProcess.apply(clients));
    concurrent.run(overHttp.apply(clients), timed.seconds());
  }

  private static ServerBenchReport.Latencies searchLatency(
      Memory memory, HttpLoadProcess http, Scope scope, List<String> queries, Options o) {
    String user = scope.userId().orElseThrow();
    Timed[] timed =
        alternating(
            o.latencySearches(),
            (from, to) ->
                concurrently(
                    1,
                    from,
                    to,
                    i -> memory.search(request(scope, queries.get(i % queries.size()), o.topK()))),
            (from, to, inProcess) ->
                timedCpu(() -> http.run(new Job("search", user, o.topK(), from, to, 1))));
    double[] in = timed[0].millis();
    double[] over = timed[1].millis();
    return ServerBenchReport.Latencies.of(in, over);
  }

  private static ServerBenchReport.Rates searchThroughput(
      Memory memory, HttpBlock http, Scope scope, List<String> queries, Options o) {
    String user = scope.userId().orElseThrow();
    Timed[] timed =
        alternating(
            o.throughputSearches(),
            (from, to) ->
                concurrently(
                    o.clients(),
                    from,
                    to,
                    i -> memory.search(request(scope, queries.get(i % queries.size()), o.topK()))),
            (from, to, inProcess) ->
                timedCpu(
                    () ->
                        http.run(
                            new Job("search", user, o.topK(), from, to, o.clients()),
                            inProcess.seconds())));
    return rates(o.clients(), o.throughputSearches(), timed);
  }

  /**
   * The add warm-up: {@code o.addWarmUp()} adds each way from one client, then from {@code
   * o.clients()} (over HTTP from the load tool that times the add rates), each pass into a scope of
   * its own.
   */
  private static void warmUpAdds(
      Memory memory,
      HttpLoadProcess http,
      HttpBlock concurrent,
      List<AddRequest> turns,
      Options o) {
    untimed(
        http,
        concurrent,
        o.clients(),
        clients -> add(memory, Scope.user("bench-warm-up-in-process-" + clients), turns),
        clients -> new Job("add", "bench-warm-up-http-" + clients, 0, 0, o.addWarmUp(), clients),
        o.addWarmUp());
  }

  /**
   * Adds with infer=false, each way into a scope of its own; the rates and (one client) the
   * latencies.
   */
  private static Timed[] addRuns(
      Memory memory, HttpBlock http, List<AddRequest> turns, int clients, int adds) {
    String httpUser = "bench-adds-http-" + clients;
    Operation add = add(memory, Scope.user("bench-adds-in-process-" + clients), turns);
    return alternating(
        adds,
        (from, to) -> concurrently(clients, from, to, add),
        (from, to, inProcess) ->
            timedCpu(
                () ->
                    http.run(new Job("add", httpUser, 0, from, to, clients), inProcess.seconds())));
  }

  /** Add {@code i}: turn {@code i} (in turn) alone, infer=false, into {@code scope}. */
  private static Operation add(Memory memory, Scope scope, List<AddRequest> turns) {
    return i ->
        memory.add(
            AddRequest.builder(scope)
                .messages(List.of(Message.user(text(turns, i))))
                .infer(false)
                .build());
  }

  /** The rates and CPU costs of runs timed in process ({@code timed[0]}) and over HTTP. */
  private static ServerBenchReport.Rates rates(int clients, int operations, Timed[] timed) {
    return ServerBenchReport.Rates.of(
        clients,
        operations,
        timed[0].seconds(),
        timed[1].seconds(),
        timed[0].cpuMillisPerOperation(),
        timed[1].cpuMillisPerOperation(),
        timed[0].jitMillisPerOperation(),
        timed[1].jitMillisPerOperation());
  }

  private static String text(List<AddRequest> turns, int i) {
    return turns.get(i % turns.size()).messages().get(0).content();
  }

  private static SearchRequest request(Scope scope, String q, int topK) {
    return SearchRequest.builder(scope, q).topK(topK).build();
  }

  /** One operation, by its number. */
  @FunctionalInterface
  private interface Operation {
    void run(int index);
  }

  /** Operations {@code from} to {@code to - 1} run one way; what they took. */
  @FunctionalInterface
  private interface Block {
    Timed run(int from, int to);
  }

  /** Operations {@code from} to {@code to - 1} over HTTP, after the same ones in process. */
  @FunctionalInterface
  private interface HttpOperations {
    Timed run(int from, int to, Timed inProcess);
  }

  /**
   * Sends a job's requests through the server: the client JVM sends exactly the job's; wrk sends
   * them for about as long as the same work took in process ({@code inProcessSeconds}), and its
   * rate is what counts.
   */
  @FunctionalInterface
  private interface HttpBlock {
    HttpLoadClient.Result run(Job job, double inProcessSeconds);
  }

  /**
   * The wall seconds of some operations, each one's milliseconds, how many ran, the CPU seconds
   * this process spent meanwhile (the server's and the engine's work, not wrk's or the client
   * JVM's) and, of those, the seconds its JIT compiler spent compiling.
   */
  @SuppressWarnings("ArrayRecordComponent") // read once for percentiles, never compared or hashed
  private record Timed(
      double seconds, double[] millis, long operations, double cpuSeconds, double jitSeconds) {
    static Timed of(HttpLoadClient.Result r, ProcessCpu.Mark start) {
      return new Timed(
          r.seconds(), r.millis(), r.answered(), start.cpuSeconds(), start.jitSeconds());
    }

    Timed plus(Timed other) {
      double[] all = java.util.Arrays.copyOf(millis, millis.length + other.millis.length);
      System.arraycopy(other.millis, 0, all, millis.length, other.millis.length);
      return new Timed(
          seconds + other.seconds,
          all,
          operations + other.operations,
          cpuSeconds + other.cpuSeconds,
          jitSeconds + other.jitSeconds);
    }

    /** CPU milliseconds of this process per operation. */
    double cpuMillisPerOperation() {
      return operations == 0 ? 0 : cpuSeconds * 1e3 / operations;
    }

    /** The JIT compiler's milliseconds per operation. */
    double jitMillisPerOperation() {
      return operations == 0 ? 0 : jitSeconds * 1e3 / operations;
    }
  }

  /** Runs a job through the server and notes this process's CPU seconds meanwhile. */
  private static Timed timedCpu(java.util.function.Supplier<HttpLoadClient.Result> job) {
    ProcessCpu.Mark start = ProcessCpu.mark();
    return Timed.of(job.get(), start);
  }

  /**
   * Runs {@code n} operations each way in {@value #BLOCKS} alternating blocks (in process, HTTP, in
   * process, ...), so that a change in the machine's load during the run falls on both ways alike;
   * returns what each way took.
   */
  private static Timed[] alternating(int n, Block inProcess, HttpOperations http) {
    Timed[] timed = {new Timed(0, new double[0], 0, 0, 0), new Timed(0, new double[0], 0, 0, 0)};
    for (int b = 0; b < BLOCKS; b++) {
      int from = n * b / BLOCKS;
      int to = n * (b + 1) / BLOCKS;
      if (to > from) {
        Timed in = inProcess.run(from, to);
        timed[0] = timed[0].plus(in);
        timed[1] = timed[1].plus(http.run(from, to, in));
      }
    }
    return timed;
  }

  /**
   * Runs operations from..to-1 on {@code clients} threads; the wall seconds and each operation's
   * milliseconds.
   */
  private static Timed concurrently(int clients, int from, int to, Operation op) {
    AtomicInteger next = new AtomicInteger(from);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    double[] millis = new double[to - from];
    List<Thread> threads = new ArrayList<>();
    long t0 = System.nanoTime();
    ProcessCpu.Mark spent = ProcessCpu.mark();
    for (int c = 0; c < clients; c++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  for (int i = next.getAndIncrement();
                      i < to && failure.get() == null;
                      i = next.getAndIncrement()) {
                    long start = System.nanoTime();
                    op.run(i);
                    millis[i - from] = (System.nanoTime() - start) / 1e6;
                  }
                } catch (RuntimeException e) {
                  failure.compareAndSet(null, e);
                }
              },
              "bench-client-" + c);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuSeconds = spent.cpuSeconds();
    double jitSeconds = spent.jitSeconds();
    if (failure.get() != null) {
      throw failure.get();
    }
    return new Timed(seconds, millis, to - from, cpuSeconds, jitSeconds);
  }

  /**
   * The clock of the benchmark's memory and keys: the system clock in UTC, chosen where the run is
   * put together.
   */
  @SuppressForbidden(reason = "the benchmark's composition root chooses the system clock once")
  private static Clock systemClock() {
    return Clock.systemUTC();
  }
}

package dev.engram.bench.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.SuppressForbidden;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.locomo.LocomoReader;
import dev.engram.bench.scale.DataDirectories;
import dev.engram.bench.scale.ScaleReport.Latency;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * {@code engram bench server}: what the REST server costs over the engine. One LoCoMo conversation's turns are
 * imported (infer=false) into a fresh embedded memory, an {@link EngramServer} serves it on 127.0.0.1 with an API
 * key, and the same work is timed directly on the {@link Memory} and through the server with JDK HTTP clients:
 * <ol>
 *   <li>one client: the conversation's questions as searches, in process and over HTTP interleaved, after a
 *       warm-up; latency percentiles of each and the difference;</li>
 *   <li>throughput: {@code clients} concurrent clients searching until {@code throughputSearches} are done, each
 *       way;</li>
 *   <li>adds with infer=false of single turns, one client and {@code clients} clients, each way (into scopes of
 *       their own).</li>
 * </ol>
 * The rates are measured in alternating blocks (in process, then HTTP, four times), so that a change in the
 * machine's load falls on both ways alike.
 * Single-threaded setup; not thread-safe.
 */
public final class ServerBench {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int IMPORT_BATCH = 100;
  /** Blocks each way of the throughput and add measurements. */
  private static final int BLOCKS = 4;

  private ServerBench() {}

  /**
   * What to run.
   *
   * @param data               a file in LoCoMo's format
   * @param conversation       which conversation, from 1
   * @param turns              turns to import, 0 for all
   * @param queries            questions to time, 0 for all
   * @param topK               results per search
   * @param warmUp             searches each way before timing
   * @param clients            concurrent clients for the throughput figures
   * @param throughputSearches searches timed each way with {@code clients} clients
   * @param adds               adds timed each way and per client count
   * @param dataDir            an empty or new directory for the memory
   */
  public record Options(Path data, int conversation, int turns, int queries, int topK, int warmUp, int clients,
                        int throughputSearches, int adds, Path dataDir) {
    public Options {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(dataDir, "dataDir");
      positive("conversation", conversation);
      atLeast("turns", turns, 0);
      atLeast("queries", queries, 0);
      positive("top-k", topK);
      atLeast("warm-up", warmUp, 0);
      positive("clients", clients);
      positive("searches", throughputSearches);
      positive("adds", adds);
      if (topK > SearchRequest.MAX_TOP_K) {
        throw new ValidationException("top-k", "must be at most " + SearchRequest.MAX_TOP_K + ", got " + topK);
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
      throw new ValidationException("conversation", "the file has " + all.size() + " conversation(s), not "
          + o.conversation());
    }
    Conversation c = all.get(o.conversation() - 1);
    List<AddRequest> turns = turns(c, o.turns());
    List<String> queries = c.questions().stream().map(q -> q.question()).filter(q -> !q.isBlank())
        .limit(o.queries() == 0 ? Long.MAX_VALUE : o.queries()).toList();
    if (turns.isEmpty() || queries.isEmpty()) {
      throw new ValidationException("data", "conversation " + c.sampleId() + " has no turns or no questions");
    }
    DataDirectories.requireEmpty(o.dataDir());
    Scope scope = Scope.user(c.sampleId());
    Clock clock = systemClock();
    try (Memory memory = Engram.builder().clock(clock).storage(EmbeddedStorage.at(o.dataDir()))
        .embedder(embedder).build();
         ServerDatabase db = ServerDatabase.open(o.dataDir());
         SqliteApiKeyStore keys = new SqliteApiKeyStore(db, clock, false);
         SqliteAddEventStore events = new SqliteAddEventStore(db, false)) {
      long t0 = System.nanoTime();
      for (int i = 0; i < turns.size(); i += IMPORT_BATCH) {
        memory.addBatch(turns.subList(i, Math.min(turns.size(), i + IMPORT_BATCH)));
      }
      double importSeconds = (System.nanoTime() - t0) / 1e9;
      String key = keys.create(memory.tenant(), KeyRole.MEMBER, "bench").secret();
      EngramServer server = EngramServer.builder(memory).settings(ServerSettings.builder().port(0).build())
          .keys(keys).events(events).build().start();
      try {
        Http http = new Http("http://127.0.0.1:" + server.port(), key);
        ServerBenchReport.SearchLatency latency = searchLatency(memory, http, scope, queries, o);
        ServerBenchReport.Rates throughput = searchThroughput(memory, http, scope, queries, o);
        ServerBenchReport.Adds adds = new ServerBenchReport.Adds(addRate(memory, http, turns, 1, o.adds()),
            addRate(memory, http, turns, o.clients(), o.adds()));
        Runtime rt = Runtime.getRuntime();
        return new ServerBenchReport(c.sampleId(), turns.size(), ServerBenchReport.round(importSeconds),
            embedder.modelId(), o.topK(), queries.size(),
            new ServerBenchReport.Machine(rt.availableProcessors(), System.getProperty("java.version")), latency,
            throughput, adds);
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
        out.add(AddRequest.builder(scope).messages(List.of(Message.user(t.text()).withName(t.speaker())
            .withSourceId(t.diaId()))).timestamp(s.dateTime()).infer(false).build());
      }
    }
    return out;
  }

  private static ServerBenchReport.SearchLatency searchLatency(Memory memory, Http http, Scope scope,
                                                               List<String> queries, Options o) {
    for (int i = 0; i < o.warmUp(); i++) {
      String q = queries.get(i % queries.size());
      memory.search(request(scope, q, o.topK()));
      http.search(scope, q, o.topK());
    }
    double[] in = new double[queries.size()];
    double[] over = new double[queries.size()];
    for (int i = 0; i < queries.size(); i++) {
      String q = queries.get(i);
      // Alternate which goes first, so that neither always runs on caches the other warmed.
      if (i % 2 == 0) {
        in[i] = time(() -> memory.search(request(scope, q, o.topK())));
        over[i] = time(() -> http.search(scope, q, o.topK()));
      } else {
        over[i] = time(() -> http.search(scope, q, o.topK()));
        in[i] = time(() -> memory.search(request(scope, q, o.topK())));
      }
    }
    Latency inMs = Latency.of(in);
    Latency httpMs = Latency.of(over);
    return new ServerBenchReport.SearchLatency(inMs, httpMs, ServerBenchReport.round(httpMs.p50() - inMs.p50()),
        ServerBenchReport.round(httpMs.p95() - inMs.p95()));
  }

  private static ServerBenchReport.Rates searchThroughput(Memory memory, Http http, Scope scope,
                                                          List<String> queries, Options o) {
    double[] seconds = alternating(o.clients(), o.throughputSearches(),
        () -> i -> memory.search(request(scope, queries.get(i % queries.size()), o.topK())),
        () -> {
          Http own = http.fresh();
          return i -> own.search(scope, queries.get(i % queries.size()), o.topK());
        });
    return ServerBenchReport.Rates.of(o.clients(), o.throughputSearches(), seconds[0], seconds[1]);
  }

  private static ServerBenchReport.Rates addRate(Memory memory, Http http, List<AddRequest> turns, int clients,
                                                 int adds) {
    Scope inScope = Scope.user("bench-adds-in-process-" + clients);
    Scope httpScope = Scope.user("bench-adds-http-" + clients);
    double[] seconds = alternating(clients, adds,
        () -> i -> memory.add(AddRequest.builder(inScope).messages(List.of(Message.user(text(turns, i))))
            .infer(false).build()),
        () -> {
          Http own = http.fresh();
          return i -> own.add(httpScope, text(turns, i));
        });
    return ServerBenchReport.Rates.of(clients, adds, seconds[0], seconds[1]);
  }

  private static String text(List<AddRequest> turns, int i) {
    return turns.get(i % turns.size()).messages().get(0).content();
  }

  private static SearchRequest request(Scope scope, String q, int topK) {
    return SearchRequest.builder(scope, q).topK(topK).build();
  }

  private static double time(Runnable r) {
    long t0 = System.nanoTime();
    r.run();
    return (System.nanoTime() - t0) / 1e6;
  }

  /** One operation, by its number. */
  @FunctionalInterface
  private interface Operation {
    void run(int index);
  }

  /**
   * Runs {@code n} operations each way in {@value #BLOCKS} alternating blocks (in process, HTTP, in process, ...), so
   * that a change in the machine's load during the run falls on both ways alike; returns the seconds of each way.
   */
  private static double[] alternating(int clients, int n, Supplier<Operation> inProcess, Supplier<Operation> http) {
    double[] seconds = new double[2];
    for (int b = 0; b < BLOCKS; b++) {
      int from = n * b / BLOCKS;
      int to = n * (b + 1) / BLOCKS;
      seconds[0] += concurrently(clients, from, to, inProcess);
      seconds[1] += concurrently(clients, from, to, http);
    }
    return seconds;
  }

  /** Runs operations from..to-1 on {@code clients} threads (each makes its own operation); returns the wall seconds. */
  private static double concurrently(int clients, int from, int to, Supplier<Operation> perClient) {
    AtomicInteger next = new AtomicInteger(from);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    List<Operation> ops = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      ops.add(perClient.get());
    }
    long t0 = System.nanoTime();
    for (int c = 0; c < clients; c++) {
      Operation op = ops.get(c);
      Thread t = new Thread(() -> {
        try {
          for (int i = next.getAndIncrement(); i < to && failure.get() == null; i = next.getAndIncrement()) {
            op.run(i);
          }
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        }
      }, "bench-client-" + c);
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
    if (failure.get() != null) {
      throw failure.get();
    }
    return seconds;
  }

  /** A JDK HTTP client of the server with the key; {@link #fresh()} gives another connection pool. */
  private static final class Http {
    private final String base;
    private final String key;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).build();

    Http(String base, String key) {
      this.base = base;
      this.key = key;
    }

    Http fresh() {
      return new Http(base, key);
    }

    void search(Scope scope, String query, int topK) {
      ObjectNode body = JSON.createObjectNode();
      body.put("query", query);
      body.putObject("filters").put("user_id", scope.userId().orElseThrow());
      body.put("top_k", topK);
      post("/v3/memories/search/", body);
    }

    void add(Scope scope, String text) {
      ObjectNode body = JSON.createObjectNode();
      body.putArray("messages").addObject().put("role", "user").put("content", text);
      body.put("user_id", scope.userId().orElseThrow());
      body.put("infer", false);
      post("/v1/memories/", body);
    }

    private void post(String path, ObjectNode body) {
      try {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
            .header("Authorization", "Token " + key).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body), StandardCharsets.UTF_8))
            .build();
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (r.statusCode() != 200) {
          throw new IllegalStateException("POST " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        JSON.readTree(r.body());
      } catch (IOException e) {
        throw new IllegalStateException("POST " + path + " failed: " + e.getMessage(), e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  /** The clock of the benchmark's memory and keys: the system clock in UTC, chosen where the run is put together. */
  @SuppressForbidden(reason = "the benchmark's composition root chooses the system clock once")
  private static Clock systemClock() {
    return Clock.systemUTC();
  }
}

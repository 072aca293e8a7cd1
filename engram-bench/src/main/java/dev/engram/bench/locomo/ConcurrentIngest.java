package dev.engram.bench.locomo;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.bench.Percentiles;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.scale.DataDirectories;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Raw-turn ingest ({@code infer=false}) through concurrent adds, as a server sees it when several
 * users talk at once: each LoCoMo conversation of a file is one user's scope in one fresh embedded
 * store (the default in-process embedder), added in groups of N consecutive turns of a session; T
 * client threads each take the next group of a scope no other thread is adding to, so every scope's
 * adds stay in order (its window and source contexts are those of a sequential ingest). Each round
 * runs every thread count given, in turn; it prints turns per second of wall time, process CPU
 * milliseconds per turn and the 50th and 95th percentiles of an add's wall time, and checks that
 * every turn became one memory. With the layout {@code session}, each session of a conversation is
 * a scope of its own (run id {@code session-N} under the conversation's user), so many clients can
 * add at once, as many users would. {@code java -cp engram.jar
 * dev.engram.bench.locomo.ConcurrentIngest FILE [TURNS_PER_ADD] [THREADS,...] [ROUNDS]
 * [conversation|session]} (defaults 20, "1,2", 3 and conversation).
 */
public final class ConcurrentIngest {
  private ConcurrentIngest() {}

  public static void main(String[] args)
      throws IOException, InterruptedException, ExecutionException {
    if (args.length < 1) {
      System.err.println(
          "usage: ConcurrentIngest FILE [TURNS_PER_ADD] [THREADS,...] [ROUNDS]"
              + " [conversation|session]");
      System.exit(2);
    }
    List<Conversation> conversations = LocomoReader.read(Path.of(args[0]));
    int perAdd = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int[] threadCounts =
        Arrays.stream((args.length > 2 ? args[2] : "1,2").split(","))
            .mapToInt(Integer::parseInt)
            .toArray();
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    boolean scopePerSession = args.length > 4 && args[4].equals("session");
    Embedder embedder = OnnxEmbedders.defaultEmbedder();
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    int turns = conversations.stream().mapToInt(Conversation::turnCount).sum();
    int textLimit =
        conversations.stream()
            .mapToInt(ConversationStore::textLimit)
            .max()
            .orElse(ConversationStore.TEXT_LIMIT_FLOOR);
    for (int round = 1; round <= rounds; round++) {
      for (int threads : threadCounts) {
        Path dir = Files.createTempDirectory("engram-concurrent-ingest");
        try (Memory memory =
            Engram.builder()
                .storage(EmbeddedStorage.open(dir, embedder.dimension()))
                .embedder(embedder)
                .indexCommitInterval(ConversationStore.INDEX_COMMIT_INTERVAL)
                .maxTextLength(textLimit)
                .build()) {
          Map<Scope, Deque<AddRequest>> adds = adds(conversations, perAdd, scopePerSession);
          long cpu = os.getProcessCpuTime();
          long start = System.nanoTime();
          List<Double> addMs = ingest(memory, adds.values(), threads);
          double seconds = (System.nanoTime() - start) / 1e9;
          double cpuMs = (os.getProcessCpuTime() - cpu) / 1e6;
          long stored = 0;
          for (Scope scope : adds.keySet()) {
            stored += memory.list(ListRequest.of(scope).withPage(0, 1)).total();
          }
          if (stored != turns) {
            throw new IllegalStateException(stored + " memories stored for " + turns + " turns");
          }
          Percentiles latency =
              new Percentiles(addMs.stream().mapToDouble(Double::doubleValue).toArray());
          System.out.printf(
              Locale.ROOT,
              "round %d, %d thread(s): %d turns, %d per add: %.1f turns/s, %.2f CPU ms"
                  + " per turn, add p50 %.1f ms p95 %.1f ms%n",
              round,
              threads,
              turns,
              perAdd,
              turns / seconds,
              cpuMs / turns,
              latency.at(50),
              latency.at(95));
        } finally {
          DataDirectories.deleteTree(dir);
        }
      }
    }
  }

  /**
   * Runs every scope's adds on {@code threads} threads, one thread per scope at a time; returns
   * each add's wall time in milliseconds.
   */
  private static List<Double> ingest(
      Memory memory, Collection<Deque<AddRequest>> scopes, int threads)
      throws InterruptedException, ExecutionException {
    Deque<Deque<AddRequest>> idle = new ArrayDeque<>(scopes);
    List<Double> addMs = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> clients = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        clients.add(
            pool.submit(
                () -> {
                  while (true) {
                    Deque<AddRequest> scope;
                    synchronized (idle) {
                      scope = idle.poll();
                    }
                    if (scope == null) {
                      return;
                    }
                    long start = System.nanoTime();
                    memory.add(scope.poll());
                    addMs.add((System.nanoTime() - start) / 1e6);
                    if (!scope.isEmpty()) {
                      synchronized (idle) {
                        idle.add(scope);
                      }
                    }
                  }
                }));
      }
      for (Future<?> client : clients) {
        client.get();
      }
      return addMs;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Each scope's adds, in order: groups of {@code perAdd} consecutive turns of a session, verbatim;
   * one scope per conversation, or per session.
   */
  private static Map<Scope, Deque<AddRequest>> adds(
      List<Conversation> conversations, int perAdd, boolean scopePerSession) {
    Map<Scope, Deque<AddRequest>> out = new LinkedHashMap<>();
    for (Conversation c : conversations) {
      for (Session s : c.sessions()) {
        Scope scope =
            scopePerSession
                ? Scope.user(c.sampleId()).withRun("session-" + s.number())
                : Scope.user(c.sampleId());
        group(s, perAdd, scope, out.computeIfAbsent(scope, k -> new ArrayDeque<>()));
      }
    }
    return out;
  }

  /** Adds a session's turns to {@code adds}, {@code perAdd} at a time. */
  private static void group(Session s, int perAdd, Scope scope, Deque<AddRequest> adds) {
    List<Turn> turns = s.turns();
    for (int from = 0; from < turns.size(); from += perAdd) {
      List<Message> messages = new ArrayList<>();
      for (Turn t : turns.subList(from, Math.min(turns.size(), from + perAdd))) {
        messages.add(ConversationStore.message(t, s, "", false));
      }
      adds.add(
          AddRequest.builder(scope)
              .messages(messages)
              .timestamp(s.dateTime())
              .infer(false)
              .build());
    }
  }
}

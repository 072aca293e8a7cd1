package dev.engram.bench.locomo;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Scope;
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
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Raw-turn ingest ({@code infer=false}) through concurrent adds, as a server sees it when several users talk at once:
 * each LoCoMo conversation of a file is one user's scope in one fresh embedded store (the default in-process
 * embedder), added in groups of N consecutive turns of a session; T client threads each take the next group of a
 * scope no other thread is adding to, so every scope's adds stay in order (its window and source contexts are those
 * of a sequential ingest). Each round runs every thread count given, in turn, and prints turns per second of wall
 * time and process CPU milliseconds per turn, and checks that every turn became one memory.
 * {@code java -cp engram.jar dev.engram.bench.locomo.ConcurrentIngest FILE [TURNS_PER_ADD] [THREADS,...] [ROUNDS]}
 * (defaults 20, "1,2" and 3).
 */
public final class ConcurrentIngest {
  private ConcurrentIngest() {}

  public static void main(String[] args) throws IOException, InterruptedException, ExecutionException {
    if (args.length < 1) {
      System.err.println("usage: ConcurrentIngest FILE [TURNS_PER_ADD] [THREADS,...] [ROUNDS]");
      System.exit(2);
    }
    List<Conversation> conversations = LocomoReader.read(Path.of(args[0]));
    int perAdd = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int[] threadCounts = Arrays.stream((args.length > 2 ? args[2] : "1,2").split(",")).mapToInt(Integer::parseInt)
        .toArray();
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    Embedder embedder = OnnxEmbedders.defaultEmbedder();
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    int turns = conversations.stream().mapToInt(Conversation::turnCount).sum();
    for (int round = 1; round <= rounds; round++) {
      for (int threads : threadCounts) {
        Path dir = Files.createTempDirectory("engram-concurrent-ingest");
        try (Memory memory = Engram.builder().storage(EmbeddedStorage.open(dir, embedder.dimension()))
            .embedder(embedder).indexCommitInterval(ConversationStore.INDEX_COMMIT_INTERVAL).build()) {
          long cpu = os.getProcessCpuTime();
          long start = System.nanoTime();
          ingest(memory, conversations, perAdd, threads);
          double seconds = (System.nanoTime() - start) / 1e9;
          double cpuMs = (os.getProcessCpuTime() - cpu) / 1e6;
          long stored = 0;
          for (Conversation c : conversations) {
            stored += memory.list(ListRequest.of(Scope.user(c.sampleId())).withPage(0, 1)).total();
          }
          if (stored != turns) {
            throw new IllegalStateException(stored + " memories stored for " + turns + " turns");
          }
          System.out.printf(Locale.ROOT, "round %d, %d thread(s): %d turns, %d per add: %.1f turns/s, %.2f CPU ms"
              + " per turn%n", round, threads, turns, perAdd, turns / seconds, cpuMs / turns);
        } finally {
          DataDirectories.deleteTree(dir);
        }
      }
    }
  }

  /** Adds every conversation's groups on {@code threads} threads, one thread per scope at a time. */
  private static void ingest(Memory memory, List<Conversation> conversations, int perAdd, int threads)
      throws InterruptedException, ExecutionException {
    Deque<Deque<AddRequest>> idle = new ArrayDeque<>();
    for (Conversation c : conversations) {
      idle.add(groups(c, perAdd));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> clients = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        clients.add(pool.submit(() -> {
          while (true) {
            Deque<AddRequest> scope;
            synchronized (idle) {
              scope = idle.poll();
            }
            if (scope == null) {
              return;
            }
            memory.add(scope.poll());
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
    } finally {
      pool.shutdownNow();
    }
  }

  /** A conversation's adds, in order: groups of {@code perAdd} consecutive turns of a session, verbatim. */
  private static Deque<AddRequest> groups(Conversation c, int perAdd) {
    Scope scope = Scope.user(c.sampleId());
    Deque<AddRequest> adds = new ArrayDeque<>();
    for (Session s : c.sessions()) {
      List<Turn> turns = s.turns();
      for (int from = 0; from < turns.size(); from += perAdd) {
        List<Message> messages = new ArrayList<>();
        for (Turn t : turns.subList(from, Math.min(turns.size(), from + perAdd))) {
          messages.add(ConversationStore.message(t, s, "", false));
        }
        adds.add(AddRequest.builder(scope).messages(messages).timestamp(s.dateTime()).infer(false).build());
      }
    }
    return adds;
  }
}

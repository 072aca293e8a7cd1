package dev.engram.bench.locomo;

import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Ranking;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.bench.Percentiles;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.engine.VerbatimInference;
import dev.engram.extract.OfflineExtractor;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import dev.engram.spi.ForwardingEmbedder;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU time of a search, less sensitive to a shared machine's load than its wall time: the
 * LoCoMo questions are asked of the extract-mode stores (one scope per conversation, two turns per
 * add, the default fusion, bge-small-en-v1.5-q, as {@link RankingAblation} builds them) at a
 * 1,500-token budget, threshold 0. Each round prints, per search:
 *
 * <ul>
 *   <li>{@code embedding}: the query embedding alone ({@link Embedder#embedQuery}), process CPU
 *       time (every thread: the caller's and the ONNX runtime's, GC and JIT) over all questions;
 *   <li>{@code engine none / default}: the search with each question's vector already computed (the
 *       embedder answers from a map filled before), without ranking steps ({@link Ranking#NONE})
 *       and with the default: the calling thread's CPU time, which is all the engine's work
 *       (Lucene, SQLite, fusion, ranking steps, budget);
 *   <li>{@code end to end}: the search as a caller runs it, embedding included, process CPU time,
 *       and its wall time p50 / p95.
 * </ul>
 *
 * After the rounds the stores are reopened and asked every question twice, query vectors given: the
 * first round's wall times are a process's first searches of a scope, which compute the memories'
 * densities for the ranking step hubs; the second's are the same searches with the densities held.
 *
 * <p>The stores are written once into {@code STORE_DIR} (one data directory per conversation) and
 * reopened by later runs, so that runs of different code search the same index and their hits can
 * be compared: {@code java -cp engram.jar dev.engram.bench.locomo.SearchCpu FILE STORE_DIR [ROUNDS]
 * [HITS_OUT] [default-only]} writes each search's hits (ids and scores, in order) to {@code
 * HITS_OUT} when given ({@code -} for none); {@code default-only} measures only the default-ranking
 * searches (for a profiler's samples). A leading {@code --context-embeddings} writes (and searches)
 * the stores with context embeddings on ({@code Engram.Builder#contextEmbeddings}), a leading
 * {@code --graph} with the graph memory on (the offline graph extractor, as {@code bench locomo
 * --graph} writes it; the hits file then lists each search's relations after its hits), a leading
 * {@code --raw} the raw turns (one turn per add, stored verbatim, long turns as their passages, as
 * {@code bench locomo --mode raw} ingests them) instead of the offline extractor's facts; give each
 * a store directory of its own.
 */
public final class SearchCpu {
  private static final int BUDGET_TOKENS = 1500;

  /**
   * Rounds of every question (once with the embedder, once with the vectors precomputed) before the
   * measured ones: with two, the JIT compiler still took a third of the process's CPU time during
   * the first measured rounds.
   */
  private static final int WARM_UP_ROUNDS = 5;

  private SearchCpu() {}

  public static void main(String[] args) throws IOException {
    boolean contextEmbeddings = false;
    boolean raw = false;
    boolean graph = false;
    while (args.length > 0 && args[0].startsWith("--")) {
      contextEmbeddings |= args[0].equals("--context-embeddings");
      raw |= args[0].equals("--raw");
      graph |= args[0].equals("--graph");
      args = java.util.Arrays.copyOfRange(args, 1, args.length);
    }
    if (args.length < 2) {
      System.err.println(
          "usage: SearchCpu [--context-embeddings] [--raw] [--graph] LOCOMO_FILE STORE_DIR [ROUNDS]"
              + " [HITS_OUT]");
      System.exit(2);
    }
    List<Conversation> conversations = LocomoReader.read(Path.of(args[0]));
    Path stores = Path.of(args[1]);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    Path hitsOut = args.length > 3 && !args[3].equals("-") ? Path.of(args[3]) : null;
    boolean defaultOnly = args.length > 4 && args[4].equals("default-only");
    Embedder onnx = OnnxEmbedders.defaultEmbedder();
    QueryVectors embedder = new QueryVectors(onnx);
    List<Memory> memories = new ArrayList<>();
    List<Scope> scopes = new ArrayList<>();
    List<List<String>> questions = new ArrayList<>();
    try {
      for (Conversation c : conversations) {
        Path dir = stores.resolve(c.sampleId());
        if (!Files.exists(dir)) {
          ingest(dir, c, onnx, contextEmbeddings, raw, graph);
        }
        memories.add(open(dir, embedder, contextEmbeddings, graph));
        scopes.add(Scope.user(c.sampleId()));
        questions.add(
            c.questions().stream().filter(LocomoBench::scored).map(Question::question).toList());
      }
      int perRound = questions.stream().mapToInt(List::size).sum();
      for (List<String> qs : questions) {
        qs.forEach(embedder::remember);
      }
      for (int i = 0; i < WARM_UP_ROUNDS; i++) { // class loading, JIT, caches
        run(memories, scopes, questions, Ranking.DEFAULT, null, false);
        embedder.cached = true;
        run(memories, scopes, questions, Ranking.DEFAULT, null, true);
        embedder.cached = false;
      }
      System.out.printf(
          Locale.ROOT,
          "%d searches per round, %d rounds, load average %.2f%n",
          perRound,
          rounds,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      for (int round = 0; round < rounds; round++) {
        double embed = defaultOnly ? Double.NaN : embedOnly(onnx, questions);
        embedder.cached = true;
        double none =
            defaultOnly ? Double.NaN : run(memories, scopes, questions, Ranking.NONE, null, true);
        double engine = run(memories, scopes, questions, Ranking.DEFAULT, null, true);
        embedder.cached = false;
        List<Double> wall = new ArrayList<>();
        double full =
            defaultOnly
                ? Double.NaN
                : run(memories, scopes, questions, Ranking.DEFAULT, wall, false);
        Percentiles p =
            new Percentiles(
                wall.isEmpty()
                    ? new double[] {Double.NaN}
                    : wall.stream().mapToDouble(Double::doubleValue).toArray());
        System.out.printf(
            Locale.ROOT,
            "CPU ms per search: embedding %.2f | engine none %.2f, default %.2f | end to "
                + "end %.2f (wall p50 %.1f / p95 %.1f ms) | load %.2f%n",
            embed,
            none,
            engine,
            full,
            p.at(50),
            p.at(95),
            ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      }
      // The hubs step's densities are held per process and computed as memories first appear in a
      // search: the
      // stores reopened (the JIT warm, the densities gone), one round measures a process's first
      // searches.
      for (int c = 0; c < memories.size(); c++) {
        memories.get(c).close();
        memories.set(
            c,
            open(
                stores.resolve(conversations.get(c).sampleId()),
                embedder,
                contextEmbeddings,
                graph));
      }
      embedder.cached = true;
      List<Double> first = new ArrayList<>();
      run(memories, scopes, questions, Ranking.DEFAULT, first, true);
      List<Double> again = new ArrayList<>();
      run(memories, scopes, questions, Ranking.DEFAULT, again, true);
      embedder.cached = false;
      Percentiles p1 = new Percentiles(first.stream().mapToDouble(Double::doubleValue).toArray());
      Percentiles p2 = new Percentiles(again.stream().mapToDouble(Double::doubleValue).toArray());
      System.out.printf(
          Locale.ROOT,
          "reopened stores, default ranking, query vectors given: first round wall p50 %.1f"
              + " / p95 %.1f / max %.1f ms (%.0f ms in all), second round p50 %.1f / p95 %.1f ms%n",
          p1.at(50),
          p1.at(95),
          first.stream().mapToDouble(Double::doubleValue).max().orElse(0),
          first.stream().mapToDouble(Double::doubleValue).sum(),
          p2.at(50),
          p2.at(95));
      if (hitsOut != null) {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(hitsOut))) {
          for (int c = 0; c < memories.size(); c++) {
            for (String q : questions.get(c)) {
              StringBuilder line = new StringBuilder(q);
              SearchResult result =
                  memories.get(c).search(request(scopes.get(c), q, Ranking.DEFAULT));
              for (SearchHit h : result.hits()) {
                line.append('\t').append(h.memory().id()).append(' ').append(h.score());
              }
              for (GraphRelation r : result.relations()) {
                line.append('\t').append(r.fact()).append(' ').append(r.score());
              }
              out.println(line);
            }
          }
        }
      }
    } finally {
      for (Memory m : memories) {
        m.close();
      }
    }
  }

  private static Memory open(
      Path dir, Embedder embedder, boolean contextEmbeddings, boolean graph) {
    Engram.Builder b = Engram.builder();
    if (graph) {
      b.graph(OfflineGraphExtractor.create());
    }
    return b.storage(EmbeddedStorage.open(dir, embedder.dimension()))
        .embedder(embedder)
        .fusion(Fusion.defaultFor(contextEmbeddings))
        .indexCommitInterval(ConversationStore.INDEX_COMMIT_INTERVAL)
        .contextEmbeddings(contextEmbeddings)
        .build();
  }

  private static void ingest(
      Path dir,
      Conversation c,
      Embedder embedder,
      boolean contextEmbeddings,
      boolean raw,
      boolean graph) {
    ConversationStore store =
        ConversationStore.open(
            dir,
            c,
            ScopeLayout.CONVERSATION,
            embedder,
            Fusion.defaultFor(contextEmbeddings),
            b -> {
              b.inference(raw ? new VerbatimInference() : OfflineExtractor.create())
                  .contextEmbeddings(contextEmbeddings);
              return graph ? b.graph(OfflineGraphExtractor.create()) : b;
            });
    if (raw) {
      store.ingest(1, false, false, n -> {});
    } else {
      store.ingest(2, true, false, n -> {});
    }
    store.memory().close(); // keeps the directory (ConversationStore.close would delete it)
  }

  private static SearchRequest request(Scope scope, String query, Ranking ranking) {
    return SearchRequest.builder(scope, query)
        .threshold(0.0)
        .ranking(ranking)
        .maxTokens(BUDGET_TOKENS)
        .build();
  }

  /**
   * Every question searched once; the CPU ms per search (of this thread if {@code threadOnly}, else
   * of the process); each search's wall ms into {@code wall} if not null.
   */
  private static double run(
      List<Memory> memories,
      List<Scope> scopes,
      List<List<String>> questions,
      Ranking ranking,
      List<Double> wall,
      boolean threadOnly) {
    long cpu0 = threadOnly ? threadCpuNanos() : processCpuNanos();
    int n = 0;
    for (int c = 0; c < memories.size(); c++) {
      for (String q : questions.get(c)) {
        long t0 = System.nanoTime();
        memories.get(c).search(request(scopes.get(c), q, ranking));
        if (wall != null) {
          wall.add((System.nanoTime() - t0) / 1e6);
        }
        n++;
      }
    }
    return ((threadOnly ? threadCpuNanos() : processCpuNanos()) - cpu0) / 1e6 / n;
  }

  private static double embedOnly(Embedder embedder, List<List<String>> questions) {
    long cpu0 = processCpuNanos();
    int n = 0;
    for (List<String> qs : questions) {
      for (String q : qs) {
        embedder.embedQuery(q);
        n++;
      }
    }
    return (processCpuNanos() - cpu0) / 1e6 / n;
  }

  private static long threadCpuNanos() {
    return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** The embedder, or, while {@link #cached}, each remembered query's vector from a map. */
  private static final class QueryVectors extends ForwardingEmbedder {
    private final Map<String, float[]> vectors = new HashMap<>();
    boolean cached;

    QueryVectors(Embedder delegate) {
      super(delegate);
    }

    void remember(String query) {
      vectors.put(query, delegate.embedQuery(query));
    }

    @Override
    public float[] embedQuery(String text) {
      float[] v = cached ? vectors.get(text) : null;
      return v != null ? v.clone() : delegate.embedQuery(text);
    }
  }
}

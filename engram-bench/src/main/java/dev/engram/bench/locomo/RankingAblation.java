package dev.engram.bench.locomo;

import dev.engram.Fusion;
import dev.engram.Ranking;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.bench.Percentiles;
import dev.engram.bench.RetrievalMetrics;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.bench.scale.DataDirectories;
import dev.engram.engine.VerbatimInference;
import dev.engram.extract.OfflineExtractor;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ablation of the ranking steps ({@link Ranking}) on a LoCoMo-format file in the extract mode
 * (offline extractor, one scope per conversation, two turns per add, the default fusion,
 * bge-small-en-v1.5-q, threshold 0) or, with {@code --mode raw}, on the turns stored verbatim (one
 * turn per add, {@code infer=false}; {@code --speaker-prefix} stores each as {@code <speaker>:
 * <text>}): each conversation is ingested once, then every question is asked with each ranking at a
 * 1,500-token budget, a 500-token budget and top-k 10. Prints first the evidence recall of the
 * whole store (the share of each question's evidence turns that some stored memory came from: what
 * no ranking can exceed), then one markdown row per ranking: evidence recall at each setting,
 * multi-hop (category 1) evidence recall at each, answer-token recall at each (over all scored
 * questions), and the search latency p50 / p95 at 1,500 tokens (in process, query embedding
 * included, after a warm-up round: every question of the conversation asked once at 1,500 tokens
 * with the first ranking, not counted, so that the first ranking measured does not pay for the
 * compilation of the search code). Below the rankings, the per-turn baselines at the same settings
 * ({@link TurnBaselines}: plain cosine and BM25 over the same embedder's vectors of the turns),
 * which any ranking of raw turns should beat. A second table gives the order of each top-10: the
 * mean reciprocal rank of the first hit with evidence ({@link RetrievalMetrics#reciprocalRank}) and
 * the share of questions whose first hit holds evidence, what a reader of the results sees first.
 *
 * <p>When the questions carry a BEAM type ({@link Question#beamType()}: a BEAM file in LoCoMo's
 * format), a third table gives each ranking's evidence recall at 1,500 tokens per type. Stores
 * accept the longest turn of the data ({@link ConversationStore#textLimit}), which is printed.
 *
 * <p>{@code java -cp engram.jar dev.engram.bench.locomo.RankingAblation FILE... [RANKING...]}: one
 * or more files (each ending in {@code .json}, for example the LoCoMo sample and the BEAM sample;
 * each gets its own tables; a single file may have any name), then the rankings, each as {@link
 * Ranking#parse} reads it (default: none, the default, the default without each of its steps, the
 * default with each opt-in step). Options before the files: {@code --context-embeddings} embeds
 * each memory's source context too ({@code Engram.Builder#contextEmbeddings}); {@code --mode raw}
 * and {@code --speaker-prefix} as above; {@code --fusion cosine|rrf|weighted} the engine's fusion
 * (default {@link Fusion#defaultFor} the context embeddings setting). {@code ABLATION_DUMP=1500}
 * (or {@code 1}), {@code 500} or {@code 10} also prints, for each question whose evidence that
 * setting's search misses (a 1,500- or 500-token budget, or the top-10), what the search returned
 * and where the missed turns' memories stand in the fusion's order.
 */
public final class RankingAblation {
  private static final int[] BUDGETS = {1500, 500, 0};

  private RankingAblation() {}

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println(
          "usage: RankingAblation [--context-embeddings] [--mode raw|extract] [--speaker-prefix]"
              + " [--fusion cosine|rrf|weighted] LOCOMO_FILE... [RANKING...]");
      System.exit(2);
    }
    int dumped =
        dumped(System.getenv("ABLATION_DUMP")); // the setting whose misses to print, -1 for none
    if (dumped == -2) {
      System.err.println("ABLATION_DUMP must be 1500 (or 1), 500 or 10");
      System.exit(2);
    }
    boolean contextEmbeddings = false;
    boolean raw = false;
    boolean speakerPrefix = false;
    Optional<Fusion> chosenFusion = Optional.empty();
    int at = 0;
    while (at < args.length && args[at].startsWith("--")) {
      switch (args[at]) {
        case "--context-embeddings" -> contextEmbeddings = true;
        case "--speaker-prefix" -> speakerPrefix = true;
        case "--fusion" -> {
          String value = at + 1 < args.length ? args[++at].toUpperCase(Locale.ROOT) : "";
          if (java.util.Arrays.stream(Fusion.values()).noneMatch(f -> f.name().equals(value))) {
            System.err.println("--fusion must be one of cosine, rrf, weighted");
            System.exit(2);
          }
          chosenFusion = Optional.of(Fusion.valueOf(value));
        }
        case "--mode" -> {
          if (at + 1 >= args.length || !List.of("raw", "extract").contains(args[at + 1])) {
            System.err.println("--mode must be raw or extract");
            System.exit(2);
          }
          raw = args[++at].equals("raw");
        }
        default -> {
          System.err.println("unknown option " + args[at]);
          System.exit(2);
        }
      }
      at++;
    }
    if (speakerPrefix && !raw) {
      System.err.println("--speaker-prefix applies to --mode raw only");
      System.exit(2);
    }
    args = java.util.Arrays.copyOfRange(args, at, args.length);
    List<Path> files = new ArrayList<>();
    int firstSpec = 0;
    while (firstSpec < args.length && args[firstSpec].toLowerCase(Locale.ROOT).endsWith(".json")) {
      files.add(Path.of(args[firstSpec++]));
    }
    if (files.isEmpty()
        && args.length > 0) { // one file of another name, as before several were accepted
      files.add(Path.of(args[firstSpec++]));
    }
    if (files.isEmpty()) {
      System.err.println(
          "usage: RankingAblation [--context-embeddings] LOCOMO_FILE... [RANKING...]");
      System.exit(2);
    }
    List<String> specs =
        args.length > firstSpec ? List.of(args).subList(firstSpec, args.length) : defaultSpecs();
    Map<String, Ranking> rankings = new LinkedHashMap<>();
    for (String s : specs) {
      rankings.put(s, Ranking.parse(s, "ranking"));
    }
    Fusion fusion = chosenFusion.orElse(Fusion.defaultFor(contextEmbeddings));
    Embedder embedder = OnnxEmbedders.defaultEmbedder();
    for (Path data : files) {
      if (files.size() > 1) {
        System.out.println("\n## " + data.getFileName() + "\n");
      }
      ablate(
          data,
          rankings,
          embedder,
          new Setup(contextEmbeddings, raw, speakerPrefix, fusion),
          dumped);
    }
  }

  /**
   * How the stores are built: the mode, what a memory's embedding and text hold, and the fusion.
   */
  private record Setup(
      boolean contextEmbeddings, boolean raw, boolean speakerPrefix, Fusion fusion) {}

  /**
   * None, the default, the default without each of its steps, and the default with each opt-in
   * step.
   */
  static List<String> defaultSpecs() {
    List<String> out = new ArrayList<>(List.of("none", "default"));
    for (String step : Ranking.DEFAULT.steps()) {
      List<String> others = new ArrayList<>(Ranking.DEFAULT.steps());
      others.remove(step);
      out.add(others.isEmpty() ? "none" : String.join(",", others));
    }
    for (String step : Ranking.STEPS) {
      if (!Ranking.DEFAULT.has(step)) {
        out.add("default," + step);
      }
    }
    return out;
  }

  /** Runs every ranking on one file's conversations and prints its tables. */
  private static void ablate(
      Path data, Map<String, Ranking> rankings, Embedder embedder, Setup setup, int dumped)
      throws IOException {
    List<Conversation> conversations = LocomoReader.read(data);
    Map<String, Tally> tallies = new LinkedHashMap<>();
    List<Double> inStore =
        new ArrayList<>(); // per question with evidence: the recall of the whole store
    rankings.keySet().forEach(k -> tallies.put(k, new Tally()));
    Map<String, Tally> baselines = new LinkedHashMap<>();
    List.of(TurnBaselines.DENSE, TurnBaselines.BM25).forEach(k -> baselines.put(k, new Tally()));
    Path work = Files.createTempDirectory("engram-ranking-ablation");
    try {
      for (Conversation c : conversations) {
        Path dir = work.resolve(c.sampleId());
        try (ConversationStore store =
            ConversationStore.open(
                dir,
                c,
                ScopeLayout.CONVERSATION,
                embedder,
                setup.fusion(),
                b ->
                    b.inference(setup.raw() ? new VerbatimInference() : OfflineExtractor.create())
                        .contextEmbeddings(setup.contextEmbeddings()))) {
          store.ingest(setup.raw() ? 1 : 2, !setup.raw(), setup.speakerPrefix(), n -> {});
          List<Question> questions = c.questions().stream().filter(LocomoBench::scored).toList();
          measureBaselines(c, questions, embedder, baselines);
          Set<String> stored = store.stored().sourceIds();
          questions.stream()
              .filter(q -> !q.evidence().isEmpty())
              .forEach(q -> inStore.add(RetrievalMetrics.evidenceRecall(q.evidence(), stored)));
          store.rankWith(rankings.values().iterator().next());
          store.searchWith(BUDGETS[0], 0.0);
          store.warmUp(questions.stream().map(Question::question).toList());
          for (Map.Entry<String, Ranking> r : rankings.entrySet()) {
            store.rankWith(r.getValue());
            Tally t = tallies.get(r.getKey());
            for (int b = 0; b < BUDGETS.length; b++) {
              store.searchWith(BUDGETS[b], 0.0);
              for (Question q : questions) {
                long t0 = System.nanoTime();
                List<SearchHit> hits = store.search(q.question(), SearchRequest.DEFAULT_TOP_K);
                long elapsed = System.nanoTime() - t0;
                t.answer(
                    b,
                    RetrievalMetrics.answerTokenRecall(
                        q.answer(), hits.stream().map(h -> h.memory().text()).toList()));
                if (q.evidence().isEmpty()) {
                  continue;
                }
                Set<String> sources = new HashSet<>();
                hits.forEach(h -> sources.addAll(h.memory().sourceIds()));
                t.add(b, q, RetrievalMetrics.evidenceRecall(q.evidence(), sources), elapsed);
                if (BUDGETS[b] == 0) {
                  t.order(
                      RetrievalMetrics.reciprocalRank(
                          q.evidence(), hits.stream().map(h -> h.memory().sourceIds()).toList()));
                }
                if (b == dumped && !sources.containsAll(q.evidence())) {
                  dump(store, q, hits, sources, BUDGETS[b]);
                }
              }
            }
          }
        }
      }
    } finally {
      DataDirectories.deleteTree(work);
    }
    System.out.printf(
        Locale.ROOT,
        "evidence recall of the whole store: %.3f (%d questions); longest message %d"
            + " characters%n",
        inStore.stream().mapToDouble(Double::doubleValue).average().orElse(0),
        inStore.size(),
        conversations.stream().mapToInt(Conversation::longestTurnChars).max().orElse(0));
    System.out.println(
        "| ranking | recall at 1,500 tokens | at 500 tokens | recall@10 | multi-hop at 1,500 | "
            + "multi-hop at 500 | multi-hop @10 | answer-token recall at 1,500 / 500 / @10 | p50 / p95 ms at 1,500 |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    Map<String, Tally> rows = new LinkedHashMap<>(tallies);
    baselines.forEach((k, v) -> rows.put(k + " (baseline)", v));
    for (Map.Entry<String, Tally> e : rows.entrySet()) {
      Tally t = e.getValue();
      Percentiles p =
          new Percentiles(t.latencies.stream().mapToDouble(Double::doubleValue).toArray());
      System.out.printf(
          Locale.ROOT,
          "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f / %.3f / %.3f | %.1f / %.1f |%n",
          e.getKey(),
          t.mean(0, 0),
          t.mean(1, 0),
          t.mean(2, 0),
          t.mean(0, 1),
          t.mean(1, 1),
          t.mean(2, 1),
          t.answerMean(0),
          t.answerMean(1),
          t.answerMean(2),
          p.at(50),
          p.at(95));
    }
    System.out.println("\norder of the top-10 (questions with evidence):\n");
    System.out.println("| ranking | MRR@10 | evidence first |");
    System.out.println("|---|---|---|");
    for (Map.Entry<String, Tally> e : rows.entrySet()) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %.3f | %.3f |%n",
          e.getKey(),
          e.getValue().reciprocalRankMean(),
          e.getValue().firstShare());
    }
    Set<String> types = new TreeSet<>();
    tallies.values().forEach(t -> types.addAll(t.typeSum.keySet()));
    if (!types.isEmpty()) {
      System.out.println("\nevidence recall at 1,500 tokens per BEAM type:\n");
      System.out.println("| ranking | " + String.join(" | ", types) + " |");
      System.out.println("|---|" + "---|".repeat(types.size()));
      for (Map.Entry<String, Tally> e : tallies.entrySet()) {
        StringBuilder row = new StringBuilder("| " + e.getKey() + " |");
        types.forEach(
            type -> row.append(String.format(Locale.ROOT, " %.3f |", e.getValue().typeMean(type))));
        System.out.println(row);
      }
    }
  }

  /** The per-turn baselines of one conversation at each setting of {@link #BUDGETS}. */
  private static void measureBaselines(
      Conversation c, List<Question> questions, Embedder embedder, Map<String, Tally> into) {
    TurnBaselines index = TurnBaselines.index(c, embedder);
    for (Question q : questions) {
      long t0 = System.nanoTime();
      List<Integer> dense = index.dense(embedder.embedQuery(q.question()));
      long denseNanos = System.nanoTime() - t0;
      t0 = System.nanoTime();
      List<Integer> bm25 = index.bm25(q.question());
      long bm25Nanos = System.nanoTime() - t0;
      for (int b = 0; b < BUDGETS.length; b++) {
        tallyBaseline(into.get(TurnBaselines.DENSE), index, dense, b, q, denseNanos);
        tallyBaseline(into.get(TurnBaselines.BM25), index, bm25, b, q, bm25Nanos);
      }
    }
  }

  private static void tallyBaseline(
      Tally t, TurnBaselines index, List<Integer> order, int b, Question q, long nanos) {
    List<Locomo.Turn> chosen =
        BUDGETS[b] > 0
            ? index.within(order, BUDGETS[b])
            : index.top(order, SearchRequest.DEFAULT_TOP_K);
    t.answer(
        b,
        RetrievalMetrics.answerTokenRecall(
            q.answer(), chosen.stream().map(RagBaseline::line).toList()));
    if (!q.evidence().isEmpty()) {
      Set<String> sources = new HashSet<>();
      chosen.forEach(turn -> sources.add(turn.diaId()));
      t.add(b, q, RetrievalMetrics.evidenceRecall(q.evidence(), sources), nanos);
      if (BUDGETS[b] == 0) {
        t.order(
            RetrievalMetrics.reciprocalRank(
                q.evidence(), chosen.stream().map(turn -> List.of(turn.diaId())).toList()));
      }
    }
  }

  /**
   * The index into {@link #BUDGETS} of the setting {@code ABLATION_DUMP} names (1500 or 1, 500,
   * 10); -1 when it is unset, -2 for any other value.
   */
  private static int dumped(String value) {
    if (value == null || value.isBlank()) {
      return -1;
    }
    return switch (value.strip()) {
      case "1", "1500" -> 0;
      case "500" -> 1;
      case "10" -> 2;
      default -> -2;
    };
  }

  private static void dump(
      ConversationStore store, Question q, List<SearchHit> hits, Set<String> sources, int budget) {
    System.err.println(
        "Q["
            + q.category()
            + "] "
            + q.question()
            + " -> "
            + q.answer()
            + "  evidence "
            + q.evidence());
    for (SearchHit h : hits) {
      System.err.println("   hit " + h.memory().sourceIds() + " " + h.memory().text());
    }
    store.searchWith(0, 0.0);
    List<SearchHit> all =
        new ArrayList<>(
            store
                .memory()
                .search(
                    SearchRequest.builder(store.scopes().get(0), q.question())
                        .topK(1000)
                        .explain(true)
                        .ranking(Ranking.NONE)
                        .build())
                .hits());
    all.sort(java.util.Comparator.comparingDouble(h -> -h.details().fused()));
    for (String e : q.evidence()) {
      if (sources.contains(e)) {
        continue;
      }
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).memory().sourceIds().contains(e)) {
          System.err.println("   miss " + e + " rank " + i + " " + all.get(i).memory().text());
        }
      }
    }
    store.searchWith(budget, 0.0);
  }

  /**
   * Evidence recall sums per setting, overall (category 0) and per category, per BEAM type at 1,500
   * tokens, and the 1,500-token latencies.
   */
  private static final class Tally {
    final double[][] sum = new double[BUDGETS.length][5];
    final int[][] count = new int[BUDGETS.length][5];
    final List<Double> latencies = new ArrayList<>();
    final double[] answerSum = new double[BUDGETS.length];
    final int[] answerCount = new int[BUDGETS.length];
    double reciprocalRanks;
    int firsts;
    int ranked;

    /** Per BEAM type at 1,500 tokens: the sum of evidence recall and the number of questions. */
    final Map<String, double[]> typeSum = new TreeMap<>();

    /** A question's reciprocal rank at top-10 ({@link RetrievalMetrics#reciprocalRank}). */
    void order(double reciprocalRank) {
      reciprocalRanks += reciprocalRank;
      firsts += reciprocalRank == 1.0 ? 1 : 0;
      ranked++;
    }

    double reciprocalRankMean() {
      return ranked == 0 ? 0 : reciprocalRanks / ranked;
    }

    /** The share of questions whose first hit at top-10 holds evidence. */
    double firstShare() {
      return ranked == 0 ? 0 : (double) firsts / ranked;
    }

    void answer(int setting, double recall) {
      answerSum[setting] += recall;
      answerCount[setting]++;
    }

    double answerMean(int setting) {
      return answerCount[setting] == 0 ? 0 : answerSum[setting] / answerCount[setting];
    }

    void add(int setting, Question q, double recall, long nanos) {
      int category = q.category();
      sum[setting][0] += recall;
      count[setting][0]++;
      sum[setting][category] += recall;
      count[setting][category]++;
      if (setting == 0) {
        latencies.add(nanos / 1e6);
        q.beamType()
            .ifPresent(
                type -> {
                  double[] s = typeSum.computeIfAbsent(type, k -> new double[2]);
                  s[0] += recall;
                  s[1]++;
                });
      }
    }

    double typeMean(String type) {
      double[] s = typeSum.get(type);
      return s == null || s[1] == 0 ? 0 : s[0] / s[1];
    }

    double mean(int setting, int category) {
      return count[setting][category] == 0 ? 0 : sum[setting][category] / count[setting][category];
    }
  }
}

package dev.engram.bench.locomo;

import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.GraphRelation;
import dev.engram.Ranking;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TokenCounter;
import dev.engram.TokenEstimator;
import dev.engram.ValidationException;
import dev.engram.bench.Percentiles;
import dev.engram.bench.RetrievalMetrics;
import dev.engram.bench.answer.Answerer;
import dev.engram.bench.answer.RetrievedMemory;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.engine.VerbatimInference;
import dev.engram.extract.OfflineExtractor;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryInference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.UnaryOperator;

/**
 * Runs the LoCoMo retrieval benchmark: ingests each conversation into a fresh embedded data
 * directory (laid out as {@link ScopeLayout} says, see {@link ConversationStore}), asks every
 * question of categories 1 to 4, and scores what search returns against the gold evidence; then
 * measures the baselines on the same questions with the same embedder, tokenizer and metrics: plain
 * cosine and BM25 over the turns at top-10 and within 500 and 1,500 tokens ({@link TurnBaselines}),
 * then, unless {@link Options#ragBaselines()} is off, RAG over fixed-token chunks and the full
 * context ({@link RagBaseline}). Each question with evidence also reports {@code
 * evidence_recall_store}: its evidence recall against the source ids of every memory the store
 * holds, which no search can exceed (what the ingest kept, before ranking).
 *
 * <p>With {@link Options#graph()} the stores have the graph memory on (the offline graph extractor,
 * unless the llm mode's setup sets another, such as the LLM one), every add writes the graph, and
 * each question is scored on the top-k memories plus the top-k relations the search returns: their
 * source ids count as retrieved evidence and their facts as context, as memories count their texts
 * (what the engine's token budget counts; the prompt's lines, with dates and speakers, are {@code
 * context_tokens_prompt}). Each question also reports {@code relations_per_query} and, if it has
 * evidence, {@code evidence_recall_memory_provenance} and {@code hit_memory_provenance}: the same
 * metrics with each relation's evidence taken from the memories it was extracted with ({@link
 * GraphRelation#memoryIds()}) instead of from every message of its add.
 */
public final class LocomoBench {

  /** What is stored per conversation. */
  public enum Mode {
    /** Every turn verbatim (infer=false), by default one add per turn. */
    RAW,
    /**
     * LoCoMo's observations replayed as facts ({@link ObservationReplay}), by default one add per
     * session.
     */
    OBSERVATIONS,
    /**
     * The offline extractor ({@link OfflineExtractor#create()}), adds with infer=true, by default
     * two turns each.
     */
    EXTRACT,
    /**
     * A caller-given inference, for example the LLM pipeline, adds with infer=true, by default two
     * turns each.
     */
    LLM;

    /** The lower-case name used in reports and on the command line. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Turns per add when none is chosen: 1 for raw, a whole session (0) for observations, 2
     * otherwise.
     */
    public int defaultTurnsPerAdd() {
      return switch (this) {
        case RAW -> 1;
        case OBSERVATIONS -> 0;
        case EXTRACT, LLM -> 2;
      };
    }
  }

  /** How a conversation maps to scopes (see {@link ConversationStore}). */
  public enum ScopeLayout {
    /** One scope per conversation, speakers as actors. */
    CONVERSATION,
    /** One scope per speaker, every turn added to both, as the Mem0 paper's harness. */
    SPEAKER;

    /** The lower-case name used in reports and on the command line. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * Settings of one run.
   *
   * @param data a LoCoMo-format file
   * @param mode what to store
   * @param scopes how a conversation maps to scopes
   * @param topK results per question (1..1000)
   * @param fusion how dense and keyword hits are fused
   * @param conversations how many conversations to use, from the first (0 for all)
   * @param turnsPerAdd consecutive turns of a session per add; 0 for the mode's default ({@link
   *     Mode#defaultTurnsPerAdd()})
   * @param speakerPrefix raw mode only: store each turn as {@code <speaker>: <text>} instead of its
   *     text (the speaker is the memory's actor either way; the prefix puts the name into the
   *     indexed text, as the measurement of mem0 in the evaluation reference did)
   * @param baselines true to measure the baselines too: per turn ({@link TurnBaselines}) and, with
   *     {@code ragBaselines}, RAG and full context
   * @param graph true to turn the graph memory on: the offline graph extractor in the raw,
   *     observations and extract modes; in the llm mode the offline one unless the llm setup sets
   *     another (the command line sets the LLM graph extractor)
   * @param workDir where the temporary data directories go (each is deleted after its conversation)
   * @param budgetTokens a context budget per question in tokens ({@code
   *     SearchRequest.Builder#maxTokens}); 0 for none (top-k instead)
   * @param threshold the search threshold (relevance in [0, 1])
   * @param offTopic true to also ask each conversation's store the questions of the next
   *     conversation (the last asks the first's) and report, per question, {@code offtopic_empty}
   *     (1 if that off-topic search returned nothing at the run's settings) and {@code
   *     offtopic_empty@T} for a grid of thresholds T (from the best relevance among the off-topic
   *     query's first 100 candidates)
   * @param ranking the ranking steps of every search ({@link Ranking}; default {@link
   *     Ranking#DEFAULT})
   * @param contextEmbeddings true to embed each memory's source context too ({@code Engram.Builder
   *     #contextEmbeddings}), which the ranking's context step then searches
   * @param ragBaselines with {@code baselines}: the RAG (seven chunk sizes, each embedded again)
   *     and full-context baselines too, beside the cheap per-turn ones
   */
  public record Options(
      Path data,
      Mode mode,
      ScopeLayout scopes,
      int topK,
      Fusion fusion,
      int conversations,
      int turnsPerAdd,
      boolean speakerPrefix,
      boolean baselines,
      boolean graph,
      Path workDir,
      int budgetTokens,
      double threshold,
      boolean offTopic,
      Ranking ranking,
      boolean contextEmbeddings,
      boolean ragBaselines) {
    public Options {
      Objects.requireNonNull(ranking, "ranking");
      if (budgetTokens < 0 || budgetTokens > SearchRequest.MAX_TOKENS) {
        throw new ValidationException(
            "budget_tokens",
            "must be 0 (none) to " + SearchRequest.MAX_TOKENS + ", got " + budgetTokens);
      }
      if (!(threshold >= 0 && threshold <= 1)) {
        throw new ValidationException("threshold", "must be in [0, 1], got " + threshold);
      }
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(scopes, "scopes");
      Objects.requireNonNull(fusion, "fusion");
      Objects.requireNonNull(workDir, "workDir");
      if (topK < 1 || topK > SearchRequest.MAX_TOP_K) {
        throw new ValidationException(
            "top_k", "must be between 1 and " + SearchRequest.MAX_TOP_K + ", got " + topK);
      }
      if (conversations < 0) {
        throw new ValidationException(
            "conversations", "must be 0 (all) or more, got " + conversations);
      }
      if (turnsPerAdd < 0) {
        throw new ValidationException(
            "turns_per_add", "must be 0 (the mode's default) or more, got " + turnsPerAdd);
      }
      if (speakerPrefix && mode != Mode.RAW) {
        throw new ValidationException(
            "speaker_prefix", "applies to the raw mode only, not to " + mode.label());
      }
    }

    /** The conversation layout, the mode's turns per add, baselines on. */
    public Options(Path data, Mode mode, int topK, Fusion fusion, int conversations, Path workDir) {
      this(
          data,
          mode,
          ScopeLayout.CONVERSATION,
          topK,
          fusion,
          conversations,
          0,
          false,
          true,
          false,
          workDir,
          0,
          SearchRequest.DEFAULT_THRESHOLD,
          false,
          Ranking.DEFAULT,
          false,
          true);
    }

    /**
     * A builder with the defaults of {@link #Options(Path, Mode, int, Fusion, int, Path)}: the
     * conversation layout, top 10, the engine's default fusion ({@link Fusion#defaultFor} the
     * context embeddings setting, unless one is set), every conversation, the mode's turns per add,
     * baselines on, no graph, budget or off-topic queries, the default threshold and ranking.
     */
    public static Builder builder(Path data, Mode mode, Path workDir) {
      Builder b = new Options(data, mode, 10, Fusion.defaultFor(false), 0, workDir).toBuilder();
      b.fusionGiven = false;
      return b;
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
      return new Builder(this);
    }

    public Options withScopes(ScopeLayout value) {
      return toBuilder().scopes(value).build();
    }

    public Options withTurnsPerAdd(int value) {
      return toBuilder().turnsPerAdd(value).build();
    }

    public Options withSpeakerPrefix(boolean value) {
      return toBuilder().speakerPrefix(value).build();
    }

    public Options withBaselines(boolean value) {
      return toBuilder().baselines(value).build();
    }

    public Options withGraph(boolean value) {
      return toBuilder().graph(value).build();
    }

    public Options withBudgetTokens(int value) {
      return toBuilder().budgetTokens(value).build();
    }

    public Options withThreshold(double value) {
      return toBuilder().threshold(value).build();
    }

    public Options withOffTopic(boolean value) {
      return toBuilder().offTopic(value).build();
    }

    public Options withRanking(Ranking value) {
      return toBuilder().ranking(value).build();
    }

    public Options withContextEmbeddings(boolean value) {
      return toBuilder().contextEmbeddings(value).build();
    }

    /** Builds {@link Options}; the record's constructor checks the result. */
    public static final class Builder {
      private Path data;
      private Mode mode;
      private ScopeLayout scopes;
      private int topK;
      private Fusion fusion;
      private int conversations;
      private int turnsPerAdd;
      private boolean speakerPrefix;
      private boolean baselines;
      private boolean graph;
      private Path workDir;
      private int budgetTokens;
      private double threshold;
      private boolean offTopic;
      private Ranking ranking;
      private boolean contextEmbeddings;
      private boolean ragBaselines;
      private boolean fusionGiven = true;

      private Builder(Options from) {
        data = from.data;
        mode = from.mode;
        scopes = from.scopes;
        topK = from.topK;
        fusion = from.fusion;
        conversations = from.conversations;
        turnsPerAdd = from.turnsPerAdd;
        speakerPrefix = from.speakerPrefix;
        baselines = from.baselines;
        graph = from.graph;
        workDir = from.workDir;
        budgetTokens = from.budgetTokens;
        threshold = from.threshold;
        offTopic = from.offTopic;
        ranking = from.ranking;
        contextEmbeddings = from.contextEmbeddings;
        ragBaselines = from.ragBaselines;
      }

      public Builder data(Path value) {
        data = value;
        return this;
      }

      public Builder mode(Mode value) {
        mode = value;
        return this;
      }

      public Builder scopes(ScopeLayout value) {
        scopes = value;
        return this;
      }

      public Builder topK(int value) {
        topK = value;
        return this;
      }

      public Builder fusion(Fusion value) {
        fusion = value;
        fusionGiven = true;
        return this;
      }

      public Builder conversations(int value) {
        conversations = value;
        return this;
      }

      public Builder turnsPerAdd(int value) {
        turnsPerAdd = value;
        return this;
      }

      public Builder speakerPrefix(boolean value) {
        speakerPrefix = value;
        return this;
      }

      public Builder baselines(boolean value) {
        baselines = value;
        return this;
      }

      public Builder graph(boolean value) {
        graph = value;
        return this;
      }

      public Builder workDir(Path value) {
        workDir = value;
        return this;
      }

      public Builder budgetTokens(int value) {
        budgetTokens = value;
        return this;
      }

      public Builder threshold(double value) {
        threshold = value;
        return this;
      }

      public Builder offTopic(boolean value) {
        offTopic = value;
        return this;
      }

      public Builder ranking(Ranking value) {
        ranking = value;
        return this;
      }

      public Builder contextEmbeddings(boolean value) {
        contextEmbeddings = value;
        return this;
      }

      /** With baselines on: false keeps only the per-turn ones (no chunk is embedded again). */
      public Builder ragBaselines(boolean value) {
        ragBaselines = value;
        return this;
      }

      public Options build() {
        return new Options(
            data,
            mode,
            scopes,
            topK,
            fusionGiven ? fusion : Fusion.defaultFor(contextEmbeddings),
            conversations,
            turnsPerAdd,
            speakerPrefix,
            baselines,
            graph,
            workDir,
            budgetTokens,
            threshold,
            offTopic,
            ranking,
            contextEmbeddings,
            ragBaselines);
      }
    }

    /** The turns per add in effect: the option, or the mode's default; 0 means a whole session. */
    public int effectiveTurnsPerAdd() {
      return turnsPerAdd > 0 ? turnsPerAdd : mode.defaultTurnsPerAdd();
    }
  }

  /**
   * Callbacks of a run.
   *
   * @param progress receives units of work as they are done: one per turn ingested, one per
   *     question asked, and per conversation and chunk size the conversation's turn count once its
   *     chunks are embedded (the sum is {@link #progressTotal(Options)})
   * @param observer receives every question with its hits, for answer metrics
   */
  public record Hooks(IntConsumer progress, QuestionObserver observer) {
    public Hooks {
      Objects.requireNonNull(progress, "progress");
      Objects.requireNonNull(observer, "observer");
    }

    public static Hooks none() {
      return new Hooks(n -> {}, QuestionObserver.none());
    }

    public static Hooks progress(IntConsumer progress) {
      return new Hooks(progress, QuestionObserver.none());
    }

    public Hooks withObserver(QuestionObserver value) {
      return new Hooks(progress, value);
    }
  }

  private LocomoBench() {}

  /** The conversations a run uses: the first {@code conversations} of the file, or all. */
  public static List<Conversation> conversations(Options o) {
    List<Conversation> all = LocomoReader.read(o.data());
    return o.conversations() > 0 ? all.subList(0, Math.min(o.conversations(), all.size())) : all;
  }

  /** The units of work {@link Hooks#progress()} will receive in all. */
  public static long progressTotal(Options o) {
    long total = 0;
    for (Conversation c : conversations(o)) {
      int passes = o.baselines() ? 1 + (o.ragBaselines() ? RagBaseline.CHUNK_TOKENS.size() : 0) : 0;
      total += (long) c.turnCount() * (1 + passes);
      total += c.questions().stream().filter(LocomoBench::scored).count();
    }
    return total;
  }

  /**
   * Runs a raw, observations or extract benchmark; {@code progress} receives units of work as they
   * are done.
   */
  public static LocomoReport run(Options o, Embedder embedder, IntConsumer progress) {
    return run(o, embedder, Hooks.progress(progress));
  }

  /** Runs a raw, observations or extract benchmark. */
  public static LocomoReport run(Options o, Embedder embedder, Hooks hooks) {
    if (o.mode() == Mode.LLM) {
      throw new ValidationException(
          "mode",
          "llm needs the pipeline: pass it to LocomoBench.run(Options, Embedder,"
              + " MemoryInference, Hooks) or LocomoBench.runConfigured");
    }
    return execute(o, embedder, OfflineExtractor.create(), UnaryOperator.identity(), hooks);
  }

  /**
   * Runs the benchmark with a given inference: the llm mode's (any {@link MemoryInference}, for
   * example the LLM pipeline), which in the extract mode replaces the offline extractor. The raw
   * mode stores turns verbatim and the observations mode replays LoCoMo's observations, whatever is
   * given.
   */
  public static LocomoReport run(
      Options o, Embedder embedder, MemoryInference inference, Hooks hooks) {
    Objects.requireNonNull(inference, "inference");
    return execute(o, embedder, inference, b -> b.inference(inference), hooks);
  }

  /**
   * Runs the benchmark; in the llm mode {@code llmSetup} configures each conversation's engine (its
   * inference and, for example, its conversation summarizer: the command line passes {@code
   * PipelineAssembly.configure}); the other modes ignore it and use their own inference. With
   * {@link Options#graph()} the offline graph extractor is set before {@code llmSetup} runs, so
   * {@code llmSetup} may replace it (the command line sets an {@code LlmGraphExtractor}).
   */
  public static LocomoReport runConfigured(
      Options o, Embedder embedder, UnaryOperator<Engram.Builder> llmSetup, Hooks hooks) {
    Objects.requireNonNull(llmSetup, "llmSetup");
    return execute(o, embedder, OfflineExtractor.create(), llmSetup, hooks);
  }

  private static LocomoReport execute(
      Options o,
      Embedder embedder,
      MemoryInference extractor,
      UnaryOperator<Engram.Builder> llmSetup,
      Hooks hooks) {
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(hooks, "hooks");
    ReportBuilder report =
        new ReportBuilder(
            o.data().getFileName().toString(),
            o.mode().label(),
            o.scopes().label(),
            o.effectiveTurnsPerAdd(),
            o.speakerPrefix(),
            o.graph(),
            o.topK(),
            embedder.modelId(),
            o.fusion().name().toLowerCase(Locale.ROOT));
    List<Conversation> all = conversations(o);
    if (o.offTopic() && all.size() < 2) {
      throw new ValidationException(
          "off_topic", "needs at least two conversations, the file has " + all.size());
    }
    for (int i = 0; i < all.size(); i++) {
      Conversation c = all.get(i);
      Conversation other = all.get((i + 1) % all.size());
      report.longestMessage(c.longestTurnChars());
      UnaryOperator<Engram.Builder> setup =
          switch (o.mode()) {
            case RAW -> b -> b.inference(new VerbatimInference());
            case OBSERVATIONS -> own(new ObservationReplay(c.observations()), c, o.scopes());
            case EXTRACT -> own(extractor, c, o.scopes());
            case LLM -> llmSetup;
          };
      if (o.graph()) {
        UnaryOperator<Engram.Builder> modeSetup = setup;
        setup = b -> modeSetup.apply(b.graph(OfflineGraphExtractor.create()));
      }
      runEngram(o, c, other, embedder, setup, hooks, report);
      if (o.baselines()) {
        TurnBaselines.measure(c, embedder, hooks, report);
        if (o.ragBaselines()) {
          Baselines.measure(c, embedder, hooks, report);
        }
      }
    }
    return report.build();
  }

  private static UnaryOperator<Engram.Builder> own(
      MemoryInference inference, Conversation c, ScopeLayout layout) {
    MemoryInference used = ConversationStore.ownFactsOnly(inference, c, layout);
    return b -> b.inference(used);
  }

  /** Thresholds at which {@code offtopic_empty@T} is reported. */
  static final List<Double> OFF_TOPIC_GRID =
      java.util.stream.IntStream.rangeClosed(1, 19).mapToObj(i -> i * 0.05).toList();

  private static void runEngram(
      Options o,
      Conversation c,
      Conversation other,
      Embedder embedder,
      UnaryOperator<Engram.Builder> setup,
      Hooks hooks,
      ReportBuilder report) {
    Path dir = o.workDir().resolve("locomo-" + c.sampleId() + "-" + System.nanoTime());
    TimedEmbedder timed = new TimedEmbedder(embedder);
    try (ConversationStore store =
        ConversationStore.open(
            dir,
            c,
            o.scopes(),
            timed,
            o.fusion(),
            b -> setup.apply(b).contextEmbeddings(o.contextEmbeddings()))) {
      TimedEmbedder.Spent before = timed.spent();
      long start = System.nanoTime();
      store.ingest(
          o.effectiveTurnsPerAdd(), o.mode() != Mode.RAW, o.speakerPrefix(), hooks.progress());
      report.ingest(c.turnCount(), System.nanoTime() - start, timed.spent().minus(before));
      ConversationStore.Stored kept = store.stored();
      report.memoryTokens(kept.memoryTokens());
      store.searchWith(o.budgetTokens(), o.threshold());
      store.rankWith(o.ranking());
      store.warmUp(c.questions().stream().map(Question::question).toList());
      List<Question> offTopic = other.questions().stream().filter(LocomoBench::scored).toList();
      Map<String, Double> general = o.offTopic() ? generalMetrics(store, o) : Map.of();
      int asked = 0;
      for (Question q : c.questions()) {
        if (!scored(q)) {
          continue;
        }
        long t0 = System.nanoTime();
        SearchResult result = store.retrieve(q.question(), o.topK(), o.graph());
        long elapsed = System.nanoTime() - t0;
        LocomoReport.QuestionScore score =
            LocomoReport.QuestionScore.ofSearch(q, result.hits(), result.relations());
        if (!q.evidence().isEmpty()) { // what no search of this store can exceed
          score =
              score.plusExtra(
                  Map.of(
                      "evidence_recall_store",
                      RetrievalMetrics.evidenceRecall(q.evidence(), kept.sourceIds())));
        }
        score = score.plusExtra(Map.of("context_tokens_prompt", (double) promptTokens(result)));
        if (o.graph()) {
          score = score.plusExtra(graphMetrics(q, result, store));
        }
        if (o.budgetTokens()
            > 0) { // the no-tokenizer estimate, beside the cl100k count (context_tokens_mean)
          score =
              score.plusExtra(
                  Map.of(
                      "context_tokens_estimate",
                      (double)
                              result.hits().stream()
                                  .mapToInt(h -> TokenEstimator.estimate(h.memory().text()))
                                  .sum()
                          + result.relations().stream()
                              .mapToInt(r -> TokenEstimator.estimate(r.fact()))
                              .sum()));
        }
        if (o.offTopic() && !offTopic.isEmpty()) {
          score =
              score.plusExtra(
                  offTopicMetrics(store, offTopic.get(asked % offTopic.size()).question(), o));
          score = score.plusExtra(general);
          if (!q.evidence().isEmpty()) {
            score = score.plusExtra(recallAtThresholds(q, result.hits()));
          }
        }
        asked++;
        report.question(c.sampleId(), q, score, elapsed, hooks.observer().onSearch(c, q, result));
        hooks.progress().accept(1);
      }
    }
  }

  /**
   * The cl100k tokens of the context lines an answer model gets for the result ({@link Answerer}):
   * each memory with its date and speaker ({@link RetrievedMemory#render()}), each relation with
   * its dates ({@link RelationLine}). {@code context_tokens} counts only the texts, as the engine's
   * token budget does.
   */
  static int promptTokens(SearchResult result) {
    List<String> lines = new ArrayList<>();
    result.hits().forEach(h -> lines.add(RetrievedMemory.of(h.memory()).render()));
    result.relations().forEach(r -> lines.add(Answerer.relationLine(RelationLine.render(r))));
    return TokenCounter.cl100k().count(String.join("\n", lines));
  }

  /**
   * The graph run's own metrics of a question: {@code relations_per_query}, and for a question with
   * evidence {@code evidence_recall_memory_provenance} and {@code hit_memory_provenance}, whose
   * retrieved source ids are the hits' plus, per relation, those of the memories it was extracted
   * with.
   */
  static Map<String, Double> graphMetrics(
      Question q, SearchResult result, ConversationStore store) {
    Map<String, Double> out = new LinkedHashMap<>();
    out.put("relations_per_query", (double) result.relations().size());
    if (!q.evidence().isEmpty()) {
      Set<String> sources = new HashSet<>();
      for (SearchHit h : result.hits()) {
        sources.addAll(h.memory().sourceIds());
      }
      for (GraphRelation r : result.relations()) {
        sources.addAll(store.memorySourceIds(r));
      }
      out.put(
          "evidence_recall_memory_provenance",
          RetrievalMetrics.evidenceRecall(q.evidence(), sources));
      out.put("hit_memory_provenance", RetrievalMetrics.hit(q.evidence(), sources));
    }
    return out;
  }

  /**
   * An off-topic question's metrics: {@code offtopic_empty} at the run's settings, and {@code
   * offtopic_empty@T} for each threshold of {@link #OFF_TOPIC_GRID}, from the best relevance of its
   * first 100 candidates at threshold 0.
   */
  static Map<String, Double> offTopicMetrics(ConversationStore store, String question, Options o) {
    Map<String, Double> out = new LinkedHashMap<>();
    out.put("offtopic_empty", store.retrieve(question, o.topK()).hits().isEmpty() ? 1.0 : 0.0);
    store.searchWith(0, 0.0);
    double best =
        store.retrieve(question, 100).hits().stream().mapToDouble(SearchHit::score).max().orElse(0);
    store.searchWith(o.budgetTokens(), o.threshold());
    for (double t : OFF_TOPIC_GRID) {
      out.put(String.format(Locale.ROOT, "offtopic_empty@%.2f", t), best < t ? 1.0 : 0.0);
    }
    return out;
  }

  /**
   * The general questions ({@link GeneralQuestions}: 50 questions that name no one and that no
   * conversation answers) asked of a store: {@code general_empty} and {@code general_empty@T}, the
   * shares of them that {@link #offTopicMetrics} finds empty. The same figures go with each of the
   * store's questions, so the report's mean weighs the stores by their questions.
   */
  static Map<String, Double> generalMetrics(ConversationStore store, Options o) {
    Map<String, Double> sums = new LinkedHashMap<>();
    List<String> questions = GeneralQuestions.all();
    for (String q : questions) {
      offTopicMetrics(store, q, o)
          .forEach((k, v) -> sums.merge(k.replace("offtopic_", "general_"), v, Double::sum));
    }
    Map<String, Double> out = new LinkedHashMap<>();
    sums.forEach((k, v) -> out.put(k, v / questions.size()));
    return out;
  }

  /**
   * {@code evidence_recall@T} for each threshold of {@link #OFF_TOPIC_GRID}: the evidence recall of
   * the hits whose score reaches T, a lower bound of the recall a search at threshold T gets (which
   * may fill the freed places).
   */
  static Map<String, Double> recallAtThresholds(Question q, List<SearchHit> hits) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (double t : OFF_TOPIC_GRID) {
      Set<String> sources = new HashSet<>();
      hits.stream()
          .filter(h -> h.score() >= t)
          .forEach(h -> sources.addAll(h.memory().sourceIds()));
      out.put(
          String.format(Locale.ROOT, "evidence_recall@%.2f", t),
          RetrievalMetrics.evidenceRecall(q.evidence(), sources));
    }
    return out;
  }

  /** Categories 1 to 4 are scored; 5 (adversarial) is left out, as in the Mem0 paper. */
  static boolean scored(Question q) {
    return q.category() >= 1 && q.category() <= 4;
  }

  static Percentiles percentiles(List<Double> values) {
    return new Percentiles(values.stream().mapToDouble(Double::doubleValue).toArray());
  }
}

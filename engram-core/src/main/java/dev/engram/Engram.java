package dev.engram;

import dev.engram.analysis.QueryAnalyzer;
import dev.engram.engine.EngramMemory;
import dev.engram.extract.OfflineExtractor;
import dev.engram.spi.ConversationSummarizer;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.IndexField;
import dev.engram.spi.MemoryInference;
import dev.engram.spi.Reranker;
import dev.engram.spi.Storage;
import dev.engram.spi.StorageFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Entry point: configures and opens a {@link Memory}.
 *
 * <pre>{@code
 * // the embedded default (engram-embedded): SQLite + Lucene in a directory, the in-process ONNX embedder, no LLM
 * try (Memory memory = Engram.embedded(Path.of("engram-data"))) {
 *   memory.add(Scope.user("alice"), "I moved to Lisbon");
 *   SearchResult hits = memory.search(Scope.user("alice"), "where does Alice live?");
 * }
 *
 * // the builder form: any storage, embedder, language model and setting
 * Memory memory = Engram.builder()
 *     .storage(EmbeddedStorage.at(Path.of("engram-data")))  // opened for the embedder's model and dimension
 *     .embedder(OnnxEmbedders.byName(OnnxEmbedders.MINILM))   // optional: the default embedder otherwise
 *     .tenant("acme")
 *     .build();
 * }</pre>
 *
 * <p>The defaults that the core cannot name itself (it depends on neither SQLite, Lucene nor ONNX)
 * are found with {@link java.util.ServiceLoader}: the embedded storage ({@code
 * dev.engram.spi.EmbeddedStorageProvider}, in {@code engram-embedded}) and the default embedder
 * ({@code dev.engram.spi.DefaultEmbedderProvider}, in {@code engram-onnx}, a dependency of {@code
 * engram-embedded}).
 */
public final class Engram {
  private Engram() {}

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens the embedded default memory in {@code dataDir} (created if needed): the SQLite record and
   * the Lucene index of {@code engram-embedded}, the in-process ONNX embedder bge-small-en-v1.5-q
   * of {@code engram-onnx}, the offline extractor (no language model), tenant {@code default}. The
   * same as {@code builder().embedded(dataDir).build()}; use that form to change a setting.
   *
   * @throws ValidationException if {@code dataDir} is null
   * @throws DataDirectoryLockedException if another process (or another open memory) owns the
   *     directory
   * @throws DimensionMismatchException if the directory was written with another embedding model
   * @throws IllegalStateException if {@code engram-embedded} is not on the class path
   */
  public static Memory embedded(Path dataDir) {
    return builder().embedded(dataDir).build();
  }

  /**
   * The engine's settings, read by the engine while the memory is open. Made only by {@link
   * Builder#build()}, which checks every setting once (a {@link ValidationException} names the one
   * that is missing or out of range), so a {@code Config} always holds a complete, valid set: no
   * accessor returns null, and what may be absent is an {@link Optional}. A new setting is a
   * builder field, its setter, a field and an accessor here: no constructor call elsewhere changes.
   */
  public static final class Config {
    private final Storage storage;
    private final Embedder embedder;
    private final MemoryInference inference;
    private final Reranker reranker;
    private final Optional<ConversationSummarizer> summarizer;
    private final String tenant;
    private final Fusion fusion;
    private final int candidatesPerSignal;
    private final int windowSize;
    private final int maxTextLength;
    private final int maxMessagesPerAdd;
    private final Duration indexCommitInterval;
    private final int asyncThreads;
    private final Clock clock;
    private final Optional<GraphExtractor> graphExtractor;
    private final double graphEntityThreshold;
    private final double graphAmbiguityFloor;
    private final boolean sourceContext;
    private final TokenCounter tokenCounter;
    private final QueryAnalyzer queryAnalyzer;
    private final boolean contextEmbeddings;
    private final int passageTokens;
    private final int contextPassageTokens;
    private final Supplier<String> ids;

    /**
     * The builder's settings, checked already, with the chosen embedder, the checked tenant and the
     * storage.
     */
    private Config(Builder b, Embedder embedder, String tenant, Storage storage) {
      this.storage = storage;
      this.embedder = embedder;
      this.inference = b.inference;
      this.reranker = b.reranker;
      this.summarizer = b.summarizer;
      this.tenant = tenant;
      this.fusion = b.fusionGiven ? b.fusion : Fusion.defaultFor(b.contextEmbeddings);
      this.candidatesPerSignal = b.candidatesPerSignal;
      this.windowSize = b.windowSize;
      this.maxTextLength = b.maxTextLength;
      this.maxMessagesPerAdd = b.maxMessagesPerAdd;
      this.indexCommitInterval = b.indexCommitInterval;
      this.asyncThreads = b.asyncThreads;
      this.clock = b.clock;
      this.graphExtractor = b.graphExtractor;
      this.graphEntityThreshold = b.graphEntityThreshold;
      this.graphAmbiguityFloor = b.graphAmbiguityFloor;
      this.sourceContext = b.sourceContext;
      this.tokenCounter = b.tokenCounter;
      this.queryAnalyzer = b.queryAnalyzer;
      this.contextEmbeddings = b.contextEmbeddings;
      this.passageTokens = b.passageTokens;
      this.contextPassageTokens = b.contextPassageTokens;
      this.ids = b.ids;
    }

    /** The backend, opened for the embedder; the memory owns it. */
    public Storage storage() {
      return storage;
    }

    /** The embedding model: the configured one, else the default one of {@code engram-onnx}. */
    public Embedder embedder() {
      return embedder;
    }

    /** What {@code infer=true} does (default: the offline extractor, no LLM). */
    public MemoryInference inference() {
      return inference;
    }

    /**
     * Scores the best fused hits of searches that ask for it ({@code SearchRequest.rerank}; default
     * {@link Reranker#none()}).
     */
    public Reranker reranker() {
      return reranker;
    }

    /** Keeps each scope's rolling conversation summary; empty for none (the default). */
    public Optional<ConversationSummarizer> summarizer() {
      return summarizer;
    }

    /** The tenant of the root instance (default {@code default}). */
    public String tenant() {
      return tenant;
    }

    /**
     * How dense and keyword hits are fused (default {@link Fusion#defaultFor} the engine's {@link
     * #contextEmbeddings}).
     */
    public Fusion fusion() {
      return fusion;
    }

    /** How many hits each signal contributes before fusion (default 50). */
    public int candidatesPerSignal() {
      return candidatesPerSignal;
    }

    /** Messages kept per scope for the pipeline (default 20). */
    public int windowSize() {
      return windowSize;
    }

    /**
     * Longest accepted message or memory text, in characters (default {@value
     * Builder#DEFAULT_MAX_TEXT_LENGTH}, 1 MiB).
     */
    public int maxTextLength() {
      return maxTextLength;
    }

    /** Most messages in one add (default 1000). */
    public int maxMessagesPerAdd() {
      return maxMessagesPerAdd;
    }

    /** How often pending index changes are made durable (default 2 s). */
    public Duration indexCommitInterval() {
      return indexCommitInterval;
    }

    /** Threads for the async variants (default 2). */
    public int asyncThreads() {
      return asyncThreads;
    }

    /** The clock of every timestamp (default the UTC system clock). */
    public Clock clock() {
      return clock;
    }

    /**
     * The graph memory's extractor; empty for no graph memory (the default). When present, the
     * storage has a graph store ({@link Builder#build()} checks it).
     */
    public Optional<GraphExtractor> graphExtractor() {
      return graphExtractor;
    }

    /**
     * Cosine similarity of name embeddings above which a new entity name is merged into an existing
     * entity of the scope (default 0.9).
     */
    public double graphEntityThreshold() {
      return graphEntityThreshold;
    }

    /**
     * Cosine similarity from which, up to {@link #graphEntityThreshold()}, an existing entity is an
     * ambiguous match that the graph extractor's language model decides ({@link
     * GraphExtractor#matchEntities}); below it names are distinct; no ambiguous band if it is not
     * below the threshold (default 0.75).
     */
    public double graphAmbiguityFloor() {
      return graphAmbiguityFloor;
    }

    /**
     * Whether a new memory keeps the words of the messages it was drawn from and of the message
     * before them, for the ranking step {@link Ranking#context()} (default true; false keeps no
     * conversation text beyond the window and the memories themselves).
     */
    public boolean sourceContext() {
      return sourceContext;
    }

    /** Counts the tokens of a search's context budget (default {@link TokenCounter#cl100k()}). */
    public TokenCounter tokenCounter() {
      return tokenCounter;
    }

    /**
     * The language of search queries: their question words, the names and periods they give
     * (default {@link QueryAnalyzer#english()}).
     */
    public QueryAnalyzer queryAnalyzer() {
      return queryAnalyzer;
    }

    /**
     * Whether a new memory with a source context also gets a context embedding (its context's
     * embedding plus half its own), which the ranking step {@link Ranking#context()} searches
     * beside the keyword signal (default false: it costs one more, longer embedding per distinct
     * context at ingest). When true, {@link #sourceContext()} is true and the storage's index keeps
     * such embeddings ({@link Builder#build()} checks both).
     */
    public boolean contextEmbeddings() {
      return contextEmbeddings;
    }

    /**
     * The most tokens ({@link #tokenCounter()}) of one passage of a long message (default {@value
     * Builder#DEFAULT_PASSAGE_TOKENS}): see {@link Builder#passageTokens}.
     */
    public int passageTokens() {
      return passageTokens;
    }

    /**
     * The most tokens ({@link #tokenCounter()}) of the passage of a long message that gives a
     * memory drawn from it its context (default {@value Builder#DEFAULT_CONTEXT_PASSAGE_TOKENS}):
     * see {@link Builder#contextPassageTokens}.
     */
    public int contextPassageTokens() {
      return contextPassageTokens;
    }

    /** Where new memory, entity and relation ids come from (default random UUIDs). */
    public Supplier<String> ids() {
      return ids;
    }
  }

  /** Builder for {@link Config}. Not thread-safe. */
  public static final class Builder {
    /** The default of {@link #maxTextLength}: 1 MiB (1,048,576 characters). */
    public static final int DEFAULT_MAX_TEXT_LENGTH = 1 << 20;

    /**
     * The default of {@link #passageTokens}: 128 cl100k tokens. On the BEAM sample's verbatim turns
     * a long message found as passages of 128 tokens gives 0.638 of the evidence at 1,500 tokens,
     * against 0.590 at 256 and 0.574 at 384 (LoCoMo, whose turns are shorter, moves within 0.004):
     * a passage's embedding stands for fewer topics. docs/BENCHMARKS.md, "Long messages".
     */
    public static final int DEFAULT_PASSAGE_TOKENS = 128;

    /**
     * The default of {@link #contextPassageTokens}: 256 cl100k tokens. The default embedders read a
     * text's first 512 wordpieces; on the BEAM sample's messages a passage counts 1.16 wordpieces
     * per cl100k token at the median and up to 2.15 (code, numbers, tables), and at 256 all but one
     * of its 3,120 passages fit 512 wordpieces with the speaker's name before them (at 300: three;
     * at 400: 179). A fact's context embedding from a passage of 128 tokens lost 0.017 of the BEAM
     * sample's evidence in the best offline mode. docs/BENCHMARKS.md, "Long messages".
     */
    public static final int DEFAULT_CONTEXT_PASSAGE_TOKENS = 256;

    private Storage openedStorage;
    private StorageFactory storageFactory;
    private Embedder embedder;
    private boolean embedderGiven;
    private MemoryInference inference = OfflineExtractor.create();
    private Reranker reranker = Reranker.none();
    private Optional<ConversationSummarizer> summarizer = Optional.empty();
    private String tenant = Tenants.DEFAULT;
    private Fusion fusion = Fusion.COSINE; // unless chosen: Fusion.defaultFor(contextEmbeddings)
    private boolean fusionGiven;
    private int candidatesPerSignal = 50;
    private int windowSize = 20;
    private boolean sourceContext = true;
    private boolean contextEmbeddings;
    private int passageTokens = DEFAULT_PASSAGE_TOKENS;
    private int contextPassageTokens = DEFAULT_CONTEXT_PASSAGE_TOKENS;
    private int maxTextLength = DEFAULT_MAX_TEXT_LENGTH;
    private int maxMessagesPerAdd = 1000;
    private Duration indexCommitInterval = Duration.ofSeconds(2);
    private int asyncThreads = 2;
    private Clock clock = systemClock();
    private Optional<GraphExtractor> graphExtractor = Optional.empty();
    private double graphEntityThreshold = 0.9;
    private double graphAmbiguityFloor = 0.75;
    private TokenCounter tokenCounter = TokenCounter.cl100k();
    private QueryAnalyzer queryAnalyzer = QueryAnalyzer.english();
    private Supplier<String> ids = () -> UUID.randomUUID().toString();

    private Builder() {}

    /**
     * Turns the graph memory (Mem0g) on with this extractor: {@code
     * dev.engram.extract.OfflineGraphExtractor} (no LLM) or {@code
     * dev.engram.pipeline.LlmGraphExtractor}; off unless called. Every add (also {@code
     * infer=false}) then also writes entities and relations, and searches return relations. Needs a
     * storage with a graph store; {@code build()} refuses it otherwise with a {@link
     * ValidationException} naming {@code graph}.
     *
     * @throws ValidationException naming {@code graph} if {@code extractor} is null (leave the
     *     graph memory off by not calling this)
     */
    public Builder graph(GraphExtractor extractor) {
      this.graphExtractor = Optional.of(present("graph", extractor));
      return this;
    }

    /** See {@link Config#graphEntityThreshold()}. */
    public Builder graphEntityThreshold(double t) {
      this.graphEntityThreshold = t;
      return this;
    }

    /** See {@link Config#graphAmbiguityFloor()}. */
    public Builder graphAmbiguityFloor(double f) {
      this.graphAmbiguityFloor = f;
      return this;
    }

    /**
     * The storage, opened by {@code build()} for the embedder's model and dimension: {@code
     * EmbeddedStorage.at(path)}, {@code PostgresStorage.with(settings)}, or any {@link
     * StorageFactory}. Replaces an earlier storage setting.
     */
    public Builder storage(StorageFactory factory) {
      this.storageFactory = factory;
      this.openedStorage = null;
      return this;
    }

    /**
     * A storage opened already (for tests and wrappers such as {@code StorageWithGraph}); the
     * memory owns it from now on. Prefer {@link #storage(StorageFactory)}, which gives the storage
     * the embedder's dimension. Replaces an earlier storage setting.
     */
    public Builder storage(Storage opened) {
      this.openedStorage = opened;
      this.storageFactory = null;
      return this;
    }

    /**
     * The embedded default storage in {@code dataDir} (SQLite record and Lucene index, found on the
     * class path in {@code engram-embedded}); same as {@code storage(EmbeddedStorage.at(dataDir))}.
     *
     * @throws ValidationException naming {@code dataDir} if it is null
     * @throws IllegalStateException if {@code engram-embedded} is not on the class path
     */
    public Builder embedded(Path dataDir) {
      if (dataDir == null) {
        throw new ValidationException("dataDir", "is required");
      }
      return storage(ServiceProviders.embeddedStorage().at(dataDir));
    }

    /**
     * The embedding model. Optional: without one, {@code build()} uses the default embedder of
     * {@code engram-onnx} (in-process bge-small-en-v1.5-q) if it is on the class path. Null is
     * refused by {@code build()} with a {@link ValidationException} naming {@code embedder}.
     */
    public Builder embedder(Embedder e) {
      this.embedder = e;
      this.embedderGiven = true;
      return this;
    }

    public Builder inference(MemoryInference i) {
      this.inference = i;
      return this;
    }

    /**
     * The reranker of searches that ask for one ({@code SearchRequest.rerank}); default {@link
     * Reranker#none()}.
     */
    public Builder reranker(Reranker r) {
      this.reranker = r;
      return this;
    }

    /**
     * Keeps a rolling summary per scope for extraction; refreshed asynchronously after adds with
     * infer. None unless called.
     *
     * @throws ValidationException naming {@code summarizer} if {@code s} is null
     */
    public Builder summarizer(ConversationSummarizer s) {
      this.summarizer = Optional.of(present("summarizer", s));
      return this;
    }

    public Builder tenant(String t) {
      this.tenant = t;
      return this;
    }

    /**
     * How dense and keyword hits are fused; unless set, {@link Fusion#defaultFor} the {@link
     * #contextEmbeddings} setting.
     */
    public Builder fusion(Fusion f) {
      this.fusion = f;
      this.fusionGiven = true;
      return this;
    }

    public Builder candidatesPerSignal(int n) {
      this.candidatesPerSignal = n;
      return this;
    }

    public Builder windowSize(int n) {
      this.windowSize = n;
      return this;
    }

    /**
     * Whether new memories keep their source context: the words of the messages each was drawn from
     * and of the message before them, stored with the memory and searched by keyword ({@link
     * Ranking#context()}). Default true; false stores none, and the context step then finds
     * nothing.
     */
    public Builder sourceContext(boolean keep) {
      this.sourceContext = keep;
      return this;
    }

    /**
     * Whether a new memory with a source context also gets a context embedding: the embedding of
     * that context plus half the memory's own, normalised (contextual retrieval's dense half),
     * which the ranking step {@link Ranking#context()} searches beside the context's keywords: a
     * fact found by what was said around it ("Researching adoption agencies" after "What are your
     * plans for the summer?") although the query shares no words with it. Default false: each
     * distinct context costs one more embedding at ingest, of a text several times longer than a
     * memory (the facts of one message share theirs). Memories written while it was off have none.
     * Needs {@link #sourceContext} and a storage whose index keeps context embeddings (the embedded
     * storage and PostgreSQL); {@code build()} refuses it otherwise with a {@link
     * ValidationException} naming {@code contextEmbeddings}.
     */
    public Builder contextEmbeddings(boolean embed) {
      this.contextEmbeddings = embed;
      return this;
    }

    /**
     * How a search's context budget ({@link SearchRequest.Builder#maxTokens}) counts tokens:
     * default {@link TokenCounter#cl100k()}, exact for OpenAI's GPT-4 family; {@link
     * TokenCounter#estimate()} needs no tokenizer; any other counter (a model's own tokenizer)
     * works too. Null is refused by {@code build()} with a {@link ValidationException} naming
     * {@code tokenCounter}.
     */
    public Builder tokenCounter(TokenCounter counter) {
      this.tokenCounter = counter;
      return this;
    }

    /**
     * The language of search queries, as Lucene's {@code Analyzer} is a field's: which words only
     * make a query a question (left out of its keyword search), which names it gives (the ranking
     * step {@link Ranking#NAMES names} looks for them in the store) and which periods it names (the
     * step {@link Ranking#DATES dates}). Default {@link QueryAnalyzer#english()}; give another for
     * queries in another language. Null is refused by {@code build()} with a {@link
     * ValidationException} naming {@code queryAnalyzer}.
     */
    public Builder queryAnalyzer(QueryAnalyzer analyzer) {
      this.queryAnalyzer = analyzer;
      return this;
    }

    /**
     * The most tokens (by {@link #tokenCounter}) of one passage of a long message kept as said;
     * default {@value #DEFAULT_PASSAGE_TOKENS}. An embedder reads only a text's first few hundred
     * tokens (512 wordpieces for the default ones) and one vector stands for all of it, so a longer
     * message is split into passages ({@code dev.engram.text.Passages}: at paragraph breaks, then
     * lines, sentences and words, never inside a code block or a list item that fits): without an
     * extractor ({@code infer=false}, or {@code VerbatimInference}) each passage becomes a memory
     * of its own, with the message's provenance and its offsets in the message ({@link
     * MemoryItem#PASSAGE_START}), and the offline extractor keeps a long message without a fact as
     * such passages. A passage is its own context: it has no source context. A message within the
     * limit is stored whole, as before. Must be at least 1; see also {@link #contextPassageTokens}.
     */
    public Builder passageTokens(int n) {
      this.passageTokens = n;
      return this;
    }

    /**
     * The most tokens (by {@link #tokenCounter}) of the passage of a long message that gives a
     * memory drawn from it (an extracted fact) its source context, and with {@link
     * #contextEmbeddings} its context embedding; default {@value #DEFAULT_CONTEXT_PASSAGE_TOKENS}.
     * Choose it so that a passage, with the speaker's name before it, fits the embedder's window in
     * its own tokens. A message within this limit is the whole context of a memory drawn from it,
     * with the message before it. Must be at least 1.
     */
    public Builder contextPassageTokens(int n) {
      this.contextPassageTokens = n;
      return this;
    }

    /**
     * The longest message or memory text accepted, in characters (UTF-16 code units); default
     * {@value #DEFAULT_MAX_TEXT_LENGTH} (1 MiB), room for a pasted document or a long answer. A
     * longer text is refused before anything is written, with a {@link TextTooLongException} naming
     * the field ({@code messages[0].content}, {@code memory}, {@code text}) and the limit. Must be
     * at least 1.
     */
    public Builder maxTextLength(int n) {
      this.maxTextLength = n;
      return this;
    }

    public Builder maxMessagesPerAdd(int n) {
      this.maxMessagesPerAdd = n;
      return this;
    }

    public Builder indexCommitInterval(Duration d) {
      this.indexCommitInterval = d;
      return this;
    }

    public Builder asyncThreads(int n) {
      this.asyncThreads = n;
      return this;
    }

    public Builder clock(Clock c) {
      this.clock = c;
      return this;
    }

    /**
     * The default clock: the system clock in UTC, read nowhere else; {@link #clock} replaces it.
     */
    @SuppressForbidden(reason = "a builder's default clock")
    private static Clock systemClock() {
      return Clock.systemUTC();
    }

    /**
     * Where the ids of new memories, entities and relations come from (default: random UUIDs). Ids
     * break ties between equal scores, so a test that compares rankings across runs fixes them, as
     * it fixes the clock; they must be unique within the storage.
     */
    public Builder ids(Supplier<String> source) {
      this.ids = source;
      return this;
    }

    /**
     * Opens the memory: checks the settings, chooses the embedder (the configured one, else the
     * default one of {@code engram-onnx}), opens the storage for it ({@link StorageFactory#open}
     * with the embedder's model and dimension), checks the embedder against the stored data, brings
     * the index up to date with the record, and starts the background index committer. The memory
     * owns the storage from then on: closing the memory closes it. If this method throws, for any
     * reason, nothing is left open: a storage given opened, or opened by the factory, has been
     * closed already, so its data directory is free to be opened again.
     *
     * @throws ValidationException if a setting is missing or invalid (the exception names it); a
     *     factory is then not called at all, unless the setting needs what the storage offers
     *     ({@code graph} a graph store, {@code contextEmbeddings} an index that keeps context
     *     embeddings)
     * @throws DimensionMismatchException if the data directory was written with another embedding
     *     model
     */
    public Memory build() {
      Storage opened = openedStorage;
      Config config;
      try {
        if (opened == null && storageFactory == null) {
          throw new ValidationException(
              "storage", "is required (for example EmbeddedStorage.at(path))");
        }
        required("tokenCounter", tokenCounter);
        required("queryAnalyzer", queryAnalyzer);
        Embedder chosen = embedderGiven ? embedder : ServiceProviders.defaultEmbedder();
        String checkedTenant = checkSettings(chosen);
        if (opened == null) {
          opened = storageFactory.open(new EmbeddingSpec(chosen.modelId(), chosen.dimension()));
          if (opened == null) {
            throw new ValidationException(
                "storage", "the storage factory " + storageFactory + " opened nothing");
          }
        }
        checkAgainstStorage(opened);
        config = new Config(this, chosen, checkedTenant, opened);
      } catch (RuntimeException | Error e) {
        closeAfterFailure(opened, e);
        throw e;
      }
      return EngramMemory.open(config);
    }

    /**
     * Checks every setting that does not depend on the storage, before a factory opens one; returns
     * the checked tenant id.
     */
    private String checkSettings(Embedder chosen) {
      required("embedder", chosen);
      required("inference", inference);
      ChangePipelines.check("inference", inference.pipelineName());
      required("reranker", reranker);
      required("fusion", fusion);
      required("indexCommitInterval", indexCommitInterval);
      required("clock", clock);
      required("ids", ids);
      required("tenant", tenant);
      String checkedTenant = Tenants.check(tenant);
      if (!(graphEntityThreshold > 0 && graphEntityThreshold <= 1)) {
        throw new ValidationException(
            "graphEntityThreshold", "must be in (0, 1], got " + graphEntityThreshold);
      }
      if (!(graphAmbiguityFloor > 0 && graphAmbiguityFloor <= 1)) {
        throw new ValidationException(
            "graphAmbiguityFloor", "must be in (0, 1], got " + graphAmbiguityFloor);
      }
      double floor = chosen.relevanceFloor();
      if (!(floor >= 0 && floor < 1)) {
        throw new ValidationException("embedder.relevanceFloor", "must be in [0, 1), got " + floor);
      }
      positive("candidatesPerSignal", candidatesPerSignal);
      positive("windowSize", windowSize);
      positive("maxTextLength", maxTextLength);
      positive("passageTokens", passageTokens);
      positive("contextPassageTokens", contextPassageTokens);
      positive("maxMessagesPerAdd", maxMessagesPerAdd);
      positive("asyncThreads", asyncThreads);
      if (indexCommitInterval.isNegative() || indexCommitInterval.isZero()) {
        throw new ValidationException(
            "indexCommitInterval", "must be positive, got " + indexCommitInterval);
      }
      if (contextEmbeddings && !sourceContext) {
        throw new ValidationException(
            "contextEmbeddings",
            "needs sourceContext: a memory without a source context " + "has nothing to embed");
      }
      return checkedTenant;
    }

    /**
     * Checks the settings that need what the storage offers: a graph store, an index of context
     * embeddings.
     */
    private void checkAgainstStorage(Storage storage) {
      if (graphExtractor.isPresent() && storage.graph().isEmpty()) {
        throw new ValidationException(
            "graph",
            "graph memory is configured, but the storage "
                + storage.getClass().getSimpleName()
                + " has no graph store");
      }
      if (contextEmbeddings && !storage.index().denseFields().contains(IndexField.CONTEXT)) {
        throw new ValidationException(
            "contextEmbeddings",
            "the storage's index ("
                + storage.index().getClass().getSimpleName()
                + ") does not keep context embeddings; the embedded "
                + "and PostgreSQL storages do");
      }
    }

    private static void required(String name, Object value) {
      if (value == null) {
        throw new ValidationException(name, "is required");
      }
    }

    private static <T> T present(String name, T value) {
      required(name, value);
      return value;
    }

    private static void positive(String name, int v) {
      if (v < 1) {
        throw new ValidationException(name, "must be positive, got " + v);
      }
    }

    /**
     * Closes a storage whose opening failed with {@code failure}; a close failure is added to it as
     * suppressed.
     */
    static void closeAfterFailure(Storage storage, Throwable failure) {
      if (storage == null) {
        return;
      }
      try {
        storage.close();
      } catch (java.io.IOException | RuntimeException closeFailure) {
        failure.addSuppressed(closeFailure);
      }
    }
  }
}

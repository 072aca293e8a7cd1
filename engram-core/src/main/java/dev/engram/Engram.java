package dev.engram;

import dev.engram.engine.EngramMemory;
import dev.engram.extract.OfflineExtractor;
import dev.engram.spi.ConversationSummarizer;
import dev.engram.spi.Embedder;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.MemoryInference;
import dev.engram.spi.Reranker;
import dev.engram.spi.Storage;
import java.time.Clock;
import java.time.Duration;

/**
 * Entry point: configures and opens a {@link Memory}.
 *
 * <pre>{@code
 * try (Memory memory = Engram.builder()
 *     .storage(EmbeddedStorage.open(Path.of("engram-data"), 384))
 *     .embedder(OnnxEmbedders.defaultModel())
 *     .build()) {
 *   memory.add(AddRequest.builder(Scope.user("alice")).user("I moved to Lisbon").infer(false).build());
 * }
 * }</pre>
 */
public final class Engram {
  private Engram() {}

  public static Builder builder() {
    return new Builder();
  }

  /**
   * The engine's settings. Build with {@link Engram#builder()}; every setting has a documented default.
   *
   * @param storage             the backend (required)
   * @param embedder            the embedding model (required)
   * @param inference           what {@code infer=true} does (default: the offline extractor, no LLM)
   * @param reranker            reorders fused hits (default: none)
   * @param summarizer          keeps each scope's rolling conversation summary, or null for none (default)
   * @param tenant              the tenant of the root instance (default {@code default})
   * @param fusion              how dense and keyword hits are fused (default {@link Fusion#RRF})
   * @param candidatesPerSignal how many hits each signal contributes before fusion (default 50)
   * @param windowSize          messages kept per scope for the pipeline (default 20)
   * @param maxTextLength       longest accepted message or memory text, in characters (default 16384)
   * @param maxMessagesPerAdd   most messages in one add (default 1000)
   * @param indexCommitInterval how often pending index changes are made durable (default 2 s)
   * @param asyncThreads        threads for the async variants (default 2)
   * @param clock               the clock for timestamps (default UTC system clock)
   * @param graphExtractor      the graph memory's extractor, or null for no graph memory (default); needs a storage
   *                            with a graph store
   * @param graphEntityThreshold cosine similarity of name embeddings above which a new entity name is merged into
   *                            an existing entity of the scope (default 0.9)
   * @param graphAmbiguityFloor  cosine similarity from which, up to {@code graphEntityThreshold}, an existing entity
   *                            is an ambiguous match that the graph extractor's language model decides
   *                            ({@link GraphExtractor#matchEntities}); below it names are distinct; no ambiguous band if
   *                            it is not below the threshold (default 0.75)
   */
  public record Config(Storage storage, Embedder embedder, MemoryInference inference, Reranker reranker,
                       ConversationSummarizer summarizer, String tenant, Fusion fusion, int candidatesPerSignal, int windowSize, int maxTextLength,
                       int maxMessagesPerAdd, Duration indexCommitInterval, int asyncThreads, Clock clock,
                       GraphExtractor graphExtractor, double graphEntityThreshold, double graphAmbiguityFloor) {
    /** @throws ValidationException naming the setting if one is missing or out of range */
    public Config {
      required("storage", storage);
      required("embedder", embedder);
      required("inference", inference);
      required("reranker", reranker);
      required("fusion", fusion);
      required("indexCommitInterval", indexCommitInterval);
      required("clock", clock);
      required("tenant", tenant);
      tenant = Tenants.check(tenant);
      if (!(graphEntityThreshold > 0 && graphEntityThreshold <= 1)) {
        throw new ValidationException("graphEntityThreshold", "must be in (0, 1], got " + graphEntityThreshold);
      }
      if (!(graphAmbiguityFloor > 0 && graphAmbiguityFloor <= 1)) {
        throw new ValidationException("graphAmbiguityFloor", "must be in (0, 1], got " + graphAmbiguityFloor);
      }
      double floor = embedder.relevanceFloor();
      if (!(floor >= 0 && floor < 1)) {
        throw new ValidationException("embedder.relevanceFloor", "must be in [0, 1), got " + floor);
      }
      positive("candidatesPerSignal", candidatesPerSignal);
      positive("windowSize", windowSize);
      positive("maxTextLength", maxTextLength);
      positive("maxMessagesPerAdd", maxMessagesPerAdd);
      positive("asyncThreads", asyncThreads);
      if (indexCommitInterval.isNegative() || indexCommitInterval.isZero()) {
        throw new ValidationException("indexCommitInterval", "must be positive, got " + indexCommitInterval);
      }
    }

    private static void required(String name, Object value) {
      if (value == null) {
        throw new ValidationException(name, "is required");
      }
    }

    private static void positive(String name, int v) {
      if (v < 1) {
        throw new ValidationException(name, "must be positive, got " + v);
      }
    }
  }

  /** Builder for {@link Config}. Not thread-safe. */
  public static final class Builder {
    private Storage storage;
    private Embedder embedder;
    private MemoryInference inference = OfflineExtractor.create();
    private Reranker reranker = Reranker.none();
    private ConversationSummarizer summarizer;
    private String tenant = Tenants.DEFAULT;
    private Fusion fusion = Fusion.RRF;
    private int candidatesPerSignal = 50;
    private int windowSize = 20;
    private int maxTextLength = 16_384;
    private int maxMessagesPerAdd = 1000;
    private Duration indexCommitInterval = Duration.ofSeconds(2);
    private int asyncThreads = 2;
    private Clock clock = Clock.systemUTC();
    private GraphExtractor graphExtractor;
    private double graphEntityThreshold = 0.9;
    private double graphAmbiguityFloor = 0.75;

    private Builder() {}

    /**
     * Turns the graph memory (Mem0g) on with this extractor: {@code dev.engram.extract.OfflineGraphExtractor} (no
     * LLM) or {@code dev.engram.pipeline.LlmGraphExtractor}; null turns it off (the default). Every add (also
     * {@code infer=false}) then also writes entities and relations, and searches return relations.
     */
    public Builder graph(GraphExtractor extractor) {
      this.graphExtractor = extractor;
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

    public Builder storage(Storage s) {
      this.storage = s;
      return this;
    }

    public Builder embedder(Embedder e) {
      this.embedder = e;
      return this;
    }

    public Builder inference(MemoryInference i) {
      this.inference = i;
      return this;
    }

    public Builder reranker(Reranker r) {
      this.reranker = r;
      return this;
    }

    /** Keeps a rolling summary per scope for extraction; refreshed asynchronously after adds with infer. */
    public Builder summarizer(ConversationSummarizer s) {
      this.summarizer = s;
      return this;
    }

    public Builder tenant(String t) {
      this.tenant = t;
      return this;
    }

    public Builder fusion(Fusion f) {
      this.fusion = f;
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

    public Config config() {
      return new Config(storage, embedder, inference, reranker, summarizer, tenant, fusion, candidatesPerSignal, windowSize,
          maxTextLength, maxMessagesPerAdd, indexCommitInterval, asyncThreads, clock, graphExtractor, graphEntityThreshold,
          graphAmbiguityFloor);
    }

    /**
     * Opens the memory: checks the settings and the embedder against the stored data, brings the index up to date
     * with the record, and starts the background index committer. The memory owns the storage from now on: closing
     * the memory closes it, and if this method throws, for any reason, the storage (if one was given) has been closed
     * already, so its data directory is free to be opened again.
     *
     * @throws ValidationException        if a setting is missing or invalid (the exception names it)
     * @throws DimensionMismatchException if the data directory was written with another embedding model
     */
    public Memory build() {
      Config config;
      try {
        config = config();
      } catch (RuntimeException | Error e) {
        closeAfterFailure(storage, e);
        throw e;
      }
      return EngramMemory.open(config);
    }

    /** Closes a storage whose opening failed with {@code failure}; a close failure is added to it as suppressed. */
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

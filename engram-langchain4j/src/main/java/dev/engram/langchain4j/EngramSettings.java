package dev.engram.langchain4j;

import dev.engram.neo4j.Neo4jSettings;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.postgres.PostgresSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Everything {@code engram.yaml} can say, as immutable records: the language model, the embedder,
 * the add pipeline, the data directory, the graph store and the memory store. Read by {@link
 * SettingsLoader}; everything here can also be built in code. Holds no secret: API keys and the
 * Neo4j and PostgreSQL passwords are named by environment variable or secrets file and read only
 * when a model is built ({@link Providers#languageModel}) or a store is connected ({@link
 * GraphStore#connection}, {@link Store#connection}). docs/CONFIGURATION.md documents every key.
 *
 * @param llm the language model; empty for none (the offline pipeline)
 * @param embedder the embedder
 * @param pipeline how adds turn messages into memories
 * @param dataDir where the stores live
 * @param graphStore where the graph memory lives: in the data directory, or on a Neo4j server
 * @param store where the memories live: in the data directory, or in PostgreSQL
 * @param reranker the reranker of searches that ask for one ({@code rerank}); empty for none
 */
public record EngramSettings(
    Optional<Llm> llm,
    Embedder embedder,
    Pipeline pipeline,
    Path dataDir,
    GraphStore graphStore,
    Store store,
    Optional<Reranker> reranker) {
  public EngramSettings {
    Objects.requireNonNull(reranker, "reranker");
    Objects.requireNonNull(llm, "llm");
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(dataDir, "dataDir");
    Objects.requireNonNull(graphStore, "graphStore");
    Objects.requireNonNull(store, "store");
  }

  /** Settings without a reranker. */
  public EngramSettings(
      Optional<Llm> llm,
      Embedder embedder,
      Pipeline pipeline,
      Path dataDir,
      GraphStore graphStore,
      Store store) {
    this(llm, embedder, pipeline, dataDir, graphStore, store, Optional.empty());
  }

  /** Settings with the embedded memory store. */
  public EngramSettings(
      Optional<Llm> llm,
      Embedder embedder,
      Pipeline pipeline,
      Path dataDir,
      GraphStore graphStore) {
    this(llm, embedder, pipeline, dataDir, graphStore, Store.embedded());
  }

  /** Settings with the embedded graph store. */
  public EngramSettings(Optional<Llm> llm, Embedder embedder, Pipeline pipeline, Path dataDir) {
    this(llm, embedder, pipeline, dataDir, GraphStore.embedded());
  }

  /**
   * No language model, the default in-process embedder, the offline pipeline, {@link
   * #defaultDataDir()}, the embedded graph store.
   */
  public static EngramSettings defaults() {
    return new EngramSettings(
        Optional.empty(),
        Embedder.of(EmbedderProvider.ONNX),
        Pipeline.of(PipelineMode.OFFLINE),
        defaultDataDir(),
        GraphStore.embedded());
  }

  /** {@code ./engram-data}, in the working directory (the CLI's default too). */
  public static Path defaultDataDir() {
    return Path.of("engram-data");
  }

  /** A builder holding these settings, to change some of them. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** A builder starting from {@link #defaults()}. */
  public static Builder builder() {
    return defaults().toBuilder();
  }

  /** A copy with a language model; an {@code offline} pipeline becomes {@code consolidate}. */
  public EngramSettings withLlm(Llm value) {
    Pipeline p =
        pipeline.mode() == PipelineMode.OFFLINE
            ? pipeline.toBuilder().mode(PipelineMode.CONSOLIDATE).build()
            : pipeline;
    return toBuilder().llm(value).pipeline(p).build();
  }

  public EngramSettings withEmbedder(Embedder value) {
    return toBuilder().embedder(value).build();
  }

  public EngramSettings withPipeline(Pipeline value) {
    return toBuilder().pipeline(value).build();
  }

  public EngramSettings withDataDir(Path value) {
    return toBuilder().dataDir(value).build();
  }

  /**
   * A copy with this graph store; a Neo4j store turns the graph memory on ({@code pipeline.graph}).
   */
  public EngramSettings withGraphStore(GraphStore value) {
    Pipeline p =
        value.provider() == GraphStoreProvider.NEO4J
            ? pipeline.toBuilder().graph(true).build()
            : pipeline;
    return toBuilder().graphStore(value).pipeline(p).build();
  }

  /** A copy with this memory store. */
  public EngramSettings withStore(Store value) {
    return toBuilder().store(value).build();
  }

  /** A copy with this reranker. */
  public EngramSettings withReranker(Reranker value) {
    return toBuilder().reranker(value).build();
  }

  /**
   * Builds {@link EngramSettings}: each setter replaces one component as given, without the
   * couplings of the {@code with} methods (a language model does not change the pipeline's mode
   * here); the record's constructor checks the result.
   */
  public static final class Builder {
    private Optional<Llm> llm;
    private Embedder embedder;
    private Pipeline pipeline;
    private Path dataDir;
    private GraphStore graphStore;
    private Store store;
    private Optional<Reranker> reranker;

    private Builder(EngramSettings from) {
      llm = from.llm;
      embedder = from.embedder;
      pipeline = from.pipeline;
      dataDir = from.dataDir;
      graphStore = from.graphStore;
      store = from.store;
      reranker = from.reranker;
    }

    public Builder llm(Llm value) {
      llm = Optional.of(value);
      return this;
    }

    /** No language model (the offline pipeline). */
    public Builder noLlm() {
      llm = Optional.empty();
      return this;
    }

    public Builder embedder(Embedder value) {
      embedder = value;
      return this;
    }

    public Builder pipeline(Pipeline value) {
      pipeline = value;
      return this;
    }

    public Builder dataDir(Path value) {
      dataDir = value;
      return this;
    }

    public Builder graphStore(GraphStore value) {
      graphStore = value;
      return this;
    }

    public Builder store(Store value) {
      store = value;
      return this;
    }

    public Builder reranker(Reranker value) {
      reranker = Optional.of(value);
      return this;
    }

    /** No reranker: searches that ask for one are not reranked. */
    public Builder noReranker() {
      reranker = Optional.empty();
      return this;
    }

    public EngramSettings build() {
      return new EngramSettings(llm, embedder, pipeline, dataDir, graphStore, store, reranker);
    }
  }

  /**
   * What the builders of {@link Llm}, {@link Embedder} and {@link Reranker} share: a model served
   * at an endpoint, reached with a key, within a timeout.
   *
   * @param <B> the builder itself, returned by every setter
   */
  public abstract static class ModelBuilder<B extends ModelBuilder<B>> {
    String model;
    Optional<String> baseUrl;
    String apiKeyEnv;
    Optional<Path> apiKeyFile;
    Duration timeout;

    ModelBuilder(
        String model,
        Optional<String> baseUrl,
        String apiKeyEnv,
        Optional<Path> apiKeyFile,
        Duration timeout) {
      this.model = model;
      this.baseUrl = baseUrl;
      this.apiKeyEnv = apiKeyEnv;
      this.apiKeyFile = apiKeyFile;
      this.timeout = timeout;
    }

    abstract B self();

    public B model(String value) {
      model = value;
      return self();
    }

    public B baseUrl(String value) {
      baseUrl = Optional.of(value);
      return self();
    }

    public B apiKeyEnv(String value) {
      apiKeyEnv = value;
      return self();
    }

    public B apiKeyFile(Path value) {
      apiKeyFile = Optional.of(value);
      return self();
    }

    public B timeout(Duration value) {
      timeout = value;
      return self();
    }
  }

  /** Reranker providers. */
  public enum RerankerProvider {
    /** Cohere's rerank API ({@link RerankApi#COHERE}). */
    COHERE(RerankApi.COHERE),
    /** Jina AI's rerank API ({@link RerankApi#JINA}). */
    JINA(RerankApi.JINA),
    /** Voyage AI's rerank API ({@link RerankApi#VOYAGE}). */
    VOYAGE(RerankApi.VOYAGE),
    /** The language model of the {@code llm} section ({@code dev.engram.pipeline.LlmReranker}). */
    LLM(null);

    private final RerankApi api;

    RerankerProvider(RerankApi api) {
      this.api = api;
    }

    /** The wire format; empty for {@link #LLM}. */
    public Optional<RerankApi> api() {
      return Optional.ofNullable(api);
    }

    /** The spelling in files, for example {@code cohere}. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The reranker.
   *
   * @param provider a rerank API, or {@code llm} for the configured language model
   * @param model the provider's model name (unused with {@code llm}, which takes the llm section's)
   * @param baseUrl the endpoint, empty for the provider's public one
   * @param apiKeyEnv the environment variable holding the key
   * @param apiKeyFile a file holding the key, read instead of the variable when present
   * @param timeout connect and read timeout of one call
   * @param candidates how many of the best fused hits are reranked per search
   */
  public record Reranker(
      RerankerProvider provider,
      String model,
      Optional<String> baseUrl,
      String apiKeyEnv,
      Optional<Path> apiKeyFile,
      Duration timeout,
      int candidates) {
    /** How long a search waits for a reranker by default. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    public Reranker {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(model, "model");
      Objects.requireNonNull(baseUrl, "baseUrl");
      Objects.requireNonNull(apiKeyEnv, "apiKeyEnv");
      Objects.requireNonNull(apiKeyFile, "apiKeyFile");
      Objects.requireNonNull(timeout, "timeout");
      if (candidates < 1) {
        throw new IllegalArgumentException(
            "reranker.candidates must be at least 1, got " + candidates);
      }
    }

    /** The provider's defaults: its model and key variable, a 10 s timeout, 30 candidates. */
    public static Reranker of(RerankerProvider provider) {
      return new Reranker(
          provider,
          provider.api().map(RerankApi::defaultModel).orElse(""),
          Optional.empty(),
          provider.api().map(RerankApi::defaultApiKeyEnv).orElse(""),
          Optional.empty(),
          DEFAULT_TIMEOUT,
          dev.engram.spi.Reranker.DEFAULT_CANDIDATES);
    }

    /** A builder holding this reranker, to change some of its settings. */
    public Builder toBuilder() {
      return new Builder(this);
    }

    /** A builder starting from {@link #of}'s defaults for {@code provider}. */
    public static Builder builder(RerankerProvider provider) {
      return of(provider).toBuilder();
    }

    /** Builds a {@link Reranker}; the record's constructor checks the result. */
    public static final class Builder extends ModelBuilder<Builder> {
      private final RerankerProvider provider;
      private int candidates;

      private Builder(Reranker from) {
        super(from.model, from.baseUrl, from.apiKeyEnv, from.apiKeyFile, from.timeout);
        provider = from.provider;
        candidates = from.candidates;
      }

      @Override
      Builder self() {
        return this;
      }

      public Builder candidates(int value) {
        candidates = value;
        return this;
      }

      public Reranker build() {
        return new Reranker(provider, model, baseUrl, apiKeyEnv, apiKeyFile, timeout, candidates);
      }
    }
  }

  /** Language-model providers. */
  public enum LlmProvider {
    /** OpenAI, or any OpenAI-compatible server given by {@code base_url}. */
    OPENAI("gpt-4o-mini", "OPENAI_API_KEY"),
    /** Anthropic's Messages API. */
    ANTHROPIC("claude-haiku-4-5", "ANTHROPIC_API_KEY"),
    /** Ollama's native API (local, no key). */
    OLLAMA("llama3.1:8b", "OLLAMA_API_KEY"),
    /** Google's Gemini API. */
    GEMINI("gemini-2.5-flash", "GEMINI_API_KEY");

    private final String defaultModel;
    private final String defaultApiKeyEnv;

    LlmProvider(String defaultModel, String defaultApiKeyEnv) {
      this.defaultModel = defaultModel;
      this.defaultApiKeyEnv = defaultApiKeyEnv;
    }

    public String defaultModel() {
      return defaultModel;
    }

    public String defaultApiKeyEnv() {
      return defaultApiKeyEnv;
    }

    /** The spelling in files and model ids, for example {@code openai}. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Embedder providers. */
  public enum EmbedderProvider {
    /** In-process ONNX models ({@link OnnxEmbedders}); no network, no key. */
    ONNX(OnnxEmbedders.DEFAULT, ""),
    /** OpenAI or an OpenAI-compatible {@code /embeddings} endpoint. */
    OPENAI("text-embedding-3-small", "OPENAI_API_KEY"),
    /** Ollama's native embedding API. */
    OLLAMA("nomic-embed-text", "OLLAMA_API_KEY");

    private final String defaultModel;
    private final String defaultApiKeyEnv;

    EmbedderProvider(String defaultModel, String defaultApiKeyEnv) {
      this.defaultModel = defaultModel;
      this.defaultApiKeyEnv = defaultApiKeyEnv;
    }

    public String defaultModel() {
      return defaultModel;
    }

    public String defaultApiKeyEnv() {
      return defaultApiKeyEnv;
    }

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** How adds turn messages into memories. */
  public enum PipelineMode {
    /** Extraction then ADD/UPDATE/DELETE/NOOP decisions by the language model (the Mem0 paper). */
    CONSOLIDATE,
    /** One language-model call that only adds. */
    ADDITIVE,
    /** The deterministic extractor; no language model. */
    OFFLINE;

    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The language model.
   *
   * @param provider who serves it
   * @param model the provider's model name
   * @param baseUrl the endpoint, empty for the provider's default
   * @param apiKeyEnv the environment variable holding the key
   * @param apiKeyFile a file holding the key, read instead of the variable when present
   * @param timeout connect and read timeout of one call
   * @param temperature replaces the pipeline's temperature when present
   * @param maxOutputTokens replaces the pipeline's output token limit when present
   * @param structuredOutput how JSON answers are requested
   */
  public record Llm(
      LlmProvider provider,
      String model,
      Optional<String> baseUrl,
      String apiKeyEnv,
      Optional<Path> apiKeyFile,
      Duration timeout,
      OptionalDouble temperature,
      OptionalInt maxOutputTokens,
      StructuredOutput structuredOutput) {
    public Llm {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(model, "model");
      Objects.requireNonNull(baseUrl, "baseUrl");
      Objects.requireNonNull(apiKeyEnv, "apiKeyEnv");
      Objects.requireNonNull(apiKeyFile, "apiKeyFile");
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(temperature, "temperature");
      Objects.requireNonNull(maxOutputTokens, "maxOutputTokens");
      Objects.requireNonNull(structuredOutput, "structuredOutput");
      if (model.isBlank()) {
        throw new IllegalArgumentException("llm.model must not be blank");
      }
    }

    /**
     * The provider's defaults: its default model and key variable, a 60 s timeout, schema output.
     */
    public static Llm of(LlmProvider provider) {
      return new Llm(
          provider,
          provider.defaultModel(),
          Optional.empty(),
          provider.defaultApiKeyEnv(),
          Optional.empty(),
          ModelSettings.DEFAULT_TIMEOUT,
          OptionalDouble.empty(),
          OptionalInt.empty(),
          StructuredOutput.SCHEMA);
    }

    /** A builder holding this language model's settings, to change some of them. */
    public Builder toBuilder() {
      return new Builder(this);
    }

    /** A builder starting from {@link #of}'s defaults for {@code provider}. */
    public static Builder builder(LlmProvider provider) {
      return of(provider).toBuilder();
    }

    /** Builds an {@link Llm}; the record's constructor checks the result. */
    public static final class Builder extends ModelBuilder<Builder> {
      private final LlmProvider provider;
      private OptionalDouble temperature;
      private OptionalInt maxOutputTokens;
      private StructuredOutput structuredOutput;

      private Builder(Llm from) {
        super(from.model, from.baseUrl, from.apiKeyEnv, from.apiKeyFile, from.timeout);
        provider = from.provider;
        temperature = from.temperature;
        maxOutputTokens = from.maxOutputTokens;
        structuredOutput = from.structuredOutput;
      }

      @Override
      Builder self() {
        return this;
      }

      public Builder temperature(double value) {
        temperature = OptionalDouble.of(value);
        return this;
      }

      public Builder maxOutputTokens(int value) {
        maxOutputTokens = OptionalInt.of(value);
        return this;
      }

      public Builder structuredOutput(StructuredOutput value) {
        structuredOutput = value;
        return this;
      }

      public Llm build() {
        return new Llm(
            provider,
            model,
            baseUrl,
            apiKeyEnv,
            apiKeyFile,
            timeout,
            temperature,
            maxOutputTokens,
            structuredOutput);
      }
    }

    /** {@code openai/gpt-4o-mini}. */
    public String modelId() {
      return provider.configName() + "/" + model;
    }
  }

  /**
   * The embedder.
   *
   * @param provider who computes the vectors
   * @param model the model name ({@link OnnxEmbedders#names()} for {@code onnx})
   * @param baseUrl the endpoint, empty for the provider's default
   * @param apiKeyEnv the environment variable holding the key
   * @param apiKeyFile a file holding the key, read instead of the variable when present
   * @param timeout connect and read timeout of one call
   * @param dimensions the vector size to ask for, when the model can shorten its vectors
   * @param queryPrefix text put before every query
   */
  public record Embedder(
      EmbedderProvider provider,
      String model,
      Optional<String> baseUrl,
      String apiKeyEnv,
      Optional<Path> apiKeyFile,
      Duration timeout,
      OptionalInt dimensions,
      String queryPrefix) {
    public Embedder {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(model, "model");
      Objects.requireNonNull(baseUrl, "baseUrl");
      Objects.requireNonNull(apiKeyEnv, "apiKeyEnv");
      Objects.requireNonNull(apiKeyFile, "apiKeyFile");
      Objects.requireNonNull(timeout, "timeout");
      Objects.requireNonNull(dimensions, "dimensions");
      Objects.requireNonNull(queryPrefix, "queryPrefix");
    }

    /** The provider's defaults. */
    public static Embedder of(EmbedderProvider provider) {
      return new Embedder(
          provider,
          provider.defaultModel(),
          Optional.empty(),
          provider.defaultApiKeyEnv(),
          Optional.empty(),
          ModelSettings.DEFAULT_TIMEOUT,
          OptionalInt.empty(),
          "");
    }

    /** A builder holding this embedder's settings, to change some of them. */
    public Builder toBuilder() {
      return new Builder(this);
    }

    /** A builder starting from {@link #of}'s defaults for {@code provider}. */
    public static Builder builder(EmbedderProvider provider) {
      return of(provider).toBuilder();
    }

    /** Builds an {@link Embedder}; the record's constructor checks the result. */
    public static final class Builder extends ModelBuilder<Builder> {
      private final EmbedderProvider provider;
      private OptionalInt dimensions;
      private String queryPrefix;

      private Builder(Embedder from) {
        super(from.model, from.baseUrl, from.apiKeyEnv, from.apiKeyFile, from.timeout);
        provider = from.provider;
        dimensions = from.dimensions;
        queryPrefix = from.queryPrefix;
      }

      @Override
      Builder self() {
        return this;
      }

      public Builder dimensions(int value) {
        dimensions = OptionalInt.of(value);
        return this;
      }

      public Builder queryPrefix(String value) {
        queryPrefix = value;
        return this;
      }

      public Embedder build() {
        return new Embedder(
            provider, model, baseUrl, apiKeyEnv, apiKeyFile, timeout, dimensions, queryPrefix);
      }
    }
  }

  /**
   * The add pipeline.
   *
   * @param mode consolidate, additive or offline
   * @param recentMessages messages of the scope shown to extraction (m in the paper)
   * @param similarMemories memories shown per fact to consolidation (s in the paper)
   * @param customInstructions what to remember and what to ignore, added to the extraction prompt
   * @param extractionPromptFile a file whose text replaces the built-in extraction prompt
   * @param maxAttempts tries per language-model call, retrying rate limits, 5xx and timeouts
   * @param graph true to keep the graph memory too (the LLM graph extractor with a language model,
   *     the offline one without)
   * @param graphEntityThreshold name-embedding cosine from which a new entity name merges into an
   *     existing entity without any model call (default 0.9)
   * @param graphAmbiguityFloor name-embedding cosine from which, below the threshold, the graph
   *     extractor's model decides whether a name is an existing entity (default 0.75)
   * @param sourceContext whether new memories keep the words of their source messages for the
   *     context ranking step ({@code Engram.Builder.sourceContext}; default true)
   * @param contextEmbeddings whether new memories' source contexts are embedded too, for the
   *     context ranking step ({@code Engram.Builder.contextEmbeddings}; default false)
   */
  public record Pipeline(
      PipelineMode mode,
      int recentMessages,
      int similarMemories,
      Optional<String> customInstructions,
      Optional<Path> extractionPromptFile,
      int maxAttempts,
      boolean graph,
      double graphEntityThreshold,
      double graphAmbiguityFloor,
      boolean sourceContext,
      boolean contextEmbeddings) {
    /** Default entity-resolution thresholds, as in {@code Engram.builder()}. */
    public static final double DEFAULT_ENTITY_THRESHOLD = 0.9;

    public static final double DEFAULT_AMBIGUITY_FLOOR = 0.75;

    public Pipeline {
      if (!(graphEntityThreshold > 0
          && graphEntityThreshold <= 1
          && graphAmbiguityFloor > 0
          && graphAmbiguityFloor <= 1)) {
        throw new IllegalArgumentException(
            "pipeline: graph thresholds must be in (0, 1]; got "
                + graphEntityThreshold
                + ", "
                + graphAmbiguityFloor);
      }
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(customInstructions, "customInstructions");
      Objects.requireNonNull(extractionPromptFile, "extractionPromptFile");
      if (recentMessages < 0 || similarMemories < 1 || maxAttempts < 1) {
        throw new IllegalArgumentException(
            "pipeline: recentMessages >= 0, similarMemories >= 1, maxAttempts >= 1;"
                + " got "
                + recentMessages
                + ", "
                + similarMemories
                + ", "
                + maxAttempts);
      }
    }

    /**
     * 10 recent messages, 10 similar memories, 3 attempts, no custom instructions or prompt, no
     * graph, the default entity-resolution thresholds, source contexts kept and not embedded.
     */
    public static Pipeline of(PipelineMode mode) {
      return builder(mode).build();
    }

    /** A builder starting from {@link #of}'s defaults for {@code mode}. */
    public static Builder builder(PipelineMode mode) {
      return new Builder(mode);
    }

    /** A builder holding this pipeline's settings, to change some of them. */
    public Builder toBuilder() {
      return new Builder(mode)
          .recentMessages(recentMessages)
          .similarMemories(similarMemories)
          .customInstructions(customInstructions)
          .extractionPromptFile(extractionPromptFile)
          .maxAttempts(maxAttempts)
          .graph(graph)
          .graphEntityThreshold(graphEntityThreshold)
          .graphAmbiguityFloor(graphAmbiguityFloor)
          .sourceContext(sourceContext)
          .contextEmbeddings(contextEmbeddings);
    }

    /** Builds a {@link Pipeline}; the record's constructor checks the result. */
    public static final class Builder {
      private PipelineMode mode;
      private int recentMessages = 10;
      private int similarMemories = 10;
      private Optional<String> customInstructions = Optional.empty();
      private Optional<Path> extractionPromptFile = Optional.empty();
      private int maxAttempts = 3;
      private boolean graph;
      private double graphEntityThreshold = DEFAULT_ENTITY_THRESHOLD;
      private double graphAmbiguityFloor = DEFAULT_AMBIGUITY_FLOOR;
      private boolean sourceContext = true;
      private boolean contextEmbeddings;

      private Builder(PipelineMode mode) {
        this.mode = mode;
      }

      public Builder mode(PipelineMode value) {
        mode = value;
        return this;
      }

      public Builder recentMessages(int value) {
        recentMessages = value;
        return this;
      }

      public Builder similarMemories(int value) {
        similarMemories = value;
        return this;
      }

      /** The custom instructions; empty for none. */
      public Builder customInstructions(Optional<String> value) {
        customInstructions = value;
        return this;
      }

      /** The file replacing the extraction prompt; empty for the built-in one. */
      public Builder extractionPromptFile(Optional<Path> value) {
        extractionPromptFile = value;
        return this;
      }

      public Builder maxAttempts(int value) {
        maxAttempts = value;
        return this;
      }

      public Builder graph(boolean value) {
        graph = value;
        return this;
      }

      public Builder graphEntityThreshold(double value) {
        graphEntityThreshold = value;
        return this;
      }

      public Builder graphAmbiguityFloor(double value) {
        graphAmbiguityFloor = value;
        return this;
      }

      public Builder sourceContext(boolean value) {
        sourceContext = value;
        return this;
      }

      public Builder contextEmbeddings(boolean value) {
        contextEmbeddings = value;
        return this;
      }

      public Pipeline build() {
        return new Pipeline(
            mode,
            recentMessages,
            similarMemories,
            customInstructions,
            extractionPromptFile,
            maxAttempts,
            graph,
            graphEntityThreshold,
            graphAmbiguityFloor,
            sourceContext,
            contextEmbeddings);
      }
    }
  }

  /** Where the graph memory lives. */
  public enum GraphStoreProvider {
    /** In the data directory's SQLite file, committed with the memories (the default). */
    EMBEDDED,
    /** On a Neo4j 5 server over Bolt; the memories stay in the data directory. */
    NEO4J;

    /** The spelling in files, for example {@code neo4j}. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The graph store: the data directory's, or a Neo4j server's, described by the Neo4j module's own
   * {@link Neo4jSettings}. Holds no password: those settings carry an empty one, and the password
   * is read from the variable {@code passwordEnv} or the file {@code passwordFile} by {@link
   * #connection} when the store is connected.
   *
   * @param neo4j the server's URI, user (empty to connect without authentication) and database,
   *     without the password; empty for the embedded store
   * @param passwordEnv the environment variable holding the password
   * @param passwordFile a file holding the password, read instead of the variable when present
   */
  public record GraphStore(
      Optional<Neo4jSettings> neo4j, String passwordEnv, Optional<Path> passwordFile) {
    /** The user name used when a password is set but no user is named. */
    public static final String DEFAULT_USER = "neo4j";

    /** The variable holding the password unless {@code password_env} names another. */
    public static final String DEFAULT_PASSWORD_ENV = "ENGRAM_NEO4J_PASSWORD";

    public GraphStore {
      Objects.requireNonNull(neo4j, "neo4j");
      Objects.requireNonNull(passwordEnv, "passwordEnv");
      Objects.requireNonNull(passwordFile, "passwordFile");
      if (neo4j.map(n -> !n.password().isEmpty()).orElse(false)) {
        throw new IllegalArgumentException(
            "graph_store holds no password: name it with passwordEnv or passwordFile");
      }
    }

    /** The graph in the data directory. */
    public static GraphStore embedded() {
      return new GraphStore(Optional.empty(), DEFAULT_PASSWORD_ENV, Optional.empty());
    }

    /**
     * Neo4j at {@code uri}, default database, no authentication unless {@link #withUser} is given.
     */
    public static GraphStore neo4j(String uri) {
      return neo4j(Neo4jSettings.of(uri, "", ""));
    }

    /**
     * Neo4j as {@code server} says (without its password), the password in {@value
     * #DEFAULT_PASSWORD_ENV}.
     */
    public static GraphStore neo4j(Neo4jSettings server) {
      return new GraphStore(Optional.of(server), DEFAULT_PASSWORD_ENV, Optional.empty());
    }

    /** Embedded or Neo4j. */
    public GraphStoreProvider provider() {
      return neo4j.isPresent() ? GraphStoreProvider.NEO4J : GraphStoreProvider.EMBEDDED;
    }

    /**
     * A copy that connects to Neo4j as {@code value}.
     *
     * @throws IllegalStateException for the embedded store, which has no user
     */
    public GraphStore withUser(String value) {
      Neo4jSettings server =
          neo4j.orElseThrow(
              () -> new IllegalStateException("the embedded graph store has no user"));
      return new GraphStore(
          Optional.of(new Neo4jSettings(server.uri(), value, "", server.database())),
          passwordEnv,
          passwordFile);
    }

    public GraphStore withPasswordEnv(String value) {
      return new GraphStore(neo4j, value, passwordFile);
    }

    public GraphStore withPasswordFile(Path value) {
      return new GraphStore(neo4j, passwordEnv, Optional.of(value));
    }

    /**
     * The password: the whole {@code passwordFile}, trimmed, if given, else the variable {@code
     * passwordEnv}; empty if neither is set. Never logged; errors name the variable or the file,
     * never the value.
     *
     * @throws dev.engram.ValidationException if the file cannot be read or is empty, or if a user
     *     is named and no password is set
     */
    public String password(java.util.Map<String, String> env) {
      boolean userNamed = neo4j.map(n -> !n.user().isEmpty()).orElse(false);
      return Secrets.password(passwordEnv, passwordFile, env, userNamed).orElse("");
    }

    /**
     * What {@code Neo4jGraphStore.connect} takes: the Neo4j settings with the password read now
     * from {@code env} or the file; empty for the embedded store.
     *
     * @throws dev.engram.ValidationException as {@link #password}
     */
    public Optional<Neo4jSettings> connection(java.util.Map<String, String> env) {
      return neo4j.map(n -> new Neo4jSettings(n.uri(), n.user(), password(env), n.database()));
    }
  }

  /** Where the memories live. */
  public enum StoreProvider {
    /** SQLite and Lucene in the data directory, owned by one process (the default). */
    EMBEDDED,
    /** A PostgreSQL 15+ database, shared by any number of processes. */
    POSTGRES;

    /** The spelling in files, for example {@code postgres}. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The memory store: the data directory's, or a PostgreSQL database described by the PostgreSQL
   * module's own {@link PostgresSettings} (URL, user, schema, pool size, vector path, exact-search
   * limit, vector cache). Holds no password: those settings carry none, and it is read from the
   * variable {@code passwordEnv} or the file {@code passwordFile} by {@link #connection} when the
   * store is connected.
   *
   * @param postgres the database's settings, without the password; empty for the embedded store
   * @param passwordEnv the environment variable holding the password
   * @param passwordFile a file holding the password, read instead of the variable when present
   */
  public record Store(
      Optional<PostgresSettings> postgres, String passwordEnv, Optional<Path> passwordFile) {
    /** The variable holding the password unless {@code password_env} names another. */
    public static final String DEFAULT_PASSWORD_ENV = "ENGRAM_POSTGRES_PASSWORD";

    public Store {
      Objects.requireNonNull(postgres, "postgres");
      Objects.requireNonNull(passwordEnv, "passwordEnv");
      Objects.requireNonNull(passwordFile, "passwordFile");
      if (postgres.flatMap(PostgresSettings::password).isPresent()) {
        throw new IllegalArgumentException(
            "store holds no password: name it with passwordEnv or passwordFile");
      }
    }

    /** Memories in the data directory. */
    public static Store embedded() {
      return new Store(Optional.empty(), DEFAULT_PASSWORD_ENV, Optional.empty());
    }

    /** PostgreSQL at {@code url} with {@link PostgresSettings#builder}'s defaults. */
    public static Store postgres(String url) {
      return postgres(PostgresSettings.builder(url).build());
    }

    /**
     * PostgreSQL as {@code database} says (without a password), the password in {@value
     * #DEFAULT_PASSWORD_ENV}.
     */
    public static Store postgres(PostgresSettings database) {
      return new Store(Optional.of(database), DEFAULT_PASSWORD_ENV, Optional.empty());
    }

    /** Embedded or PostgreSQL. */
    public StoreProvider provider() {
      return postgres.isPresent() ? StoreProvider.POSTGRES : StoreProvider.EMBEDDED;
    }

    public Store withPasswordEnv(String value) {
      return new Store(postgres, value, passwordFile);
    }

    public Store withPasswordFile(Path value) {
      return new Store(postgres, passwordEnv, Optional.of(value));
    }

    /**
     * The password: the whole {@code passwordFile}, trimmed, if given, else the variable {@code
     * passwordEnv}; empty if neither is set (a server that trusts the connection). Never logged;
     * errors name the variable or the file.
     *
     * @throws dev.engram.ValidationException if the file cannot be read or is empty
     */
    public Optional<String> password(java.util.Map<String, String> env) {
      return Secrets.storePassword(passwordEnv, passwordFile, env);
    }

    /**
     * What {@code PostgresStorage.open} takes: the PostgreSQL settings with the password, if any,
     * read now from {@code env} or the file; empty for the embedded store.
     *
     * @throws dev.engram.ValidationException as {@link #password}
     */
    public Optional<PostgresSettings> connection(java.util.Map<String, String> env) {
      return postgres.map(
          p -> {
            PostgresSettings.Builder withPassword = p.toBuilder();
            password(env).ifPresent(withPassword::password);
            return withPassword.build();
          });
    }
  }
}

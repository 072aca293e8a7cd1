package dev.engram.langchain4j;

import dev.engram.onnx.OnnxEmbedders;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Everything {@code engram.yaml} can say, as immutable records: the language model, the embedder, the add pipeline,
 * the data directory, the graph store and the memory store. Read by {@link SettingsLoader}; everything here can also
 * be built in code. Holds no secret: API keys and the Neo4j and PostgreSQL passwords are named by environment
 * variable or secrets file and read only when a model is built ({@link Providers#languageModel}) or a store is
 * connected ({@link GraphStore#password}, {@link Store#password}). docs/CONFIGURATION.md documents every key.
 *
 * @param llm        the language model; empty for none (the offline pipeline)
 * @param embedder   the embedder
 * @param pipeline   how adds turn messages into memories
 * @param dataDir    where the stores live
 * @param graphStore where the graph memory lives: in the data directory, or on a Neo4j server
 * @param store      where the memories live: in the data directory, or in PostgreSQL
 * @param reranker   the reranker of searches that ask for one ({@code rerank}); empty for none
 */
public record EngramSettings(Optional<Llm> llm, Embedder embedder, Pipeline pipeline, Path dataDir,
                             GraphStore graphStore, Store store, Optional<Reranker> reranker) {
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
  public EngramSettings(Optional<Llm> llm, Embedder embedder, Pipeline pipeline, Path dataDir,
      GraphStore graphStore, Store store) {
    this(llm, embedder, pipeline, dataDir, graphStore, store, Optional.empty());
  }

  /** Settings with the embedded memory store. */
  public EngramSettings(Optional<Llm> llm, Embedder embedder, Pipeline pipeline, Path dataDir,
      GraphStore graphStore) {
    this(llm, embedder, pipeline, dataDir, graphStore, Store.embedded());
  }

  /** Settings with the embedded graph store. */
  public EngramSettings(Optional<Llm> llm, Embedder embedder, Pipeline pipeline, Path dataDir) {
    this(llm, embedder, pipeline, dataDir, GraphStore.embedded());
  }

  /**
   * No language model, the default in-process embedder, the offline pipeline, {@link #defaultDataDir()}, the
   * embedded graph store.
   */
  public static EngramSettings defaults() {
    return new EngramSettings(Optional.empty(), Embedder.of(EmbedderProvider.ONNX), Pipeline.of(PipelineMode.OFFLINE),
        defaultDataDir(), GraphStore.embedded());
  }

  /** {@code ./engram-data}, in the working directory (the CLI's default too). */
  public static Path defaultDataDir() {
    return Path.of("engram-data");
  }

  /** A copy with a language model; an {@code offline} pipeline becomes {@code consolidate}. */
  public EngramSettings withLlm(Llm value) {
    Pipeline p = pipeline.mode() == PipelineMode.OFFLINE ? pipeline.withMode(PipelineMode.CONSOLIDATE) : pipeline;
    return new EngramSettings(Optional.of(value), embedder, p, dataDir, graphStore, store, reranker);
  }

  public EngramSettings withEmbedder(Embedder value) {
    return new EngramSettings(llm, value, pipeline, dataDir, graphStore, store, reranker);
  }

  public EngramSettings withPipeline(Pipeline value) {
    return new EngramSettings(llm, embedder, value, dataDir, graphStore, store, reranker);
  }

  public EngramSettings withDataDir(Path value) {
    return new EngramSettings(llm, embedder, pipeline, value, graphStore, store, reranker);
  }

  /** A copy with this graph store; a Neo4j store turns the graph memory on ({@code pipeline.graph}). */
  public EngramSettings withGraphStore(GraphStore value) {
    Pipeline p = value.provider() == GraphStoreProvider.NEO4J ? pipeline.withGraph(true) : pipeline;
    return new EngramSettings(llm, embedder, p, dataDir, value, store, reranker);
  }

  /** A copy with this memory store. */
  public EngramSettings withStore(Store value) {
    return new EngramSettings(llm, embedder, pipeline, dataDir, graphStore, value, reranker);
  }

  /** A copy with this reranker. */
  public EngramSettings withReranker(Reranker value) {
    return new EngramSettings(llm, embedder, pipeline, dataDir, graphStore, store, Optional.of(value));
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
   * @param provider   a rerank API, or {@code llm} for the configured language model
   * @param model      the provider's model name (unused with {@code llm}, which takes the llm section's)
   * @param baseUrl    the endpoint, empty for the provider's public one
   * @param apiKeyEnv  the environment variable holding the key
   * @param apiKeyFile a file holding the key, read instead of the variable when present
   * @param timeout    connect and read timeout of one call
   * @param candidates how many of the best fused hits are reranked per search
   */
  public record Reranker(RerankerProvider provider, String model, Optional<String> baseUrl, String apiKeyEnv,
                         Optional<Path> apiKeyFile, Duration timeout, int candidates) {
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
        throw new IllegalArgumentException("reranker.candidates must be at least 1, got " + candidates);
      }
    }

    /** The provider's defaults: its model and key variable, a 10 s timeout, 30 candidates. */
    public static Reranker of(RerankerProvider provider) {
      return new Reranker(provider, provider.api().map(RerankApi::defaultModel).orElse(""), Optional.empty(),
          provider.api().map(RerankApi::defaultApiKeyEnv).orElse(""), Optional.empty(), DEFAULT_TIMEOUT,
          dev.engram.spi.Reranker.DEFAULT_CANDIDATES);
    }

    public Reranker withBaseUrl(String value) {
      return new Reranker(provider, model, Optional.of(value), apiKeyEnv, apiKeyFile, timeout, candidates);
    }

    public Reranker withApiKeyEnv(String value) {
      return new Reranker(provider, model, baseUrl, value, apiKeyFile, timeout, candidates);
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
   * @param provider         who serves it
   * @param model            the provider's model name
   * @param baseUrl          the endpoint, empty for the provider's default
   * @param apiKeyEnv        the environment variable holding the key
   * @param apiKeyFile       a file holding the key, read instead of the variable when present
   * @param timeout          connect and read timeout of one call
   * @param temperature      replaces the pipeline's temperature when present
   * @param maxOutputTokens  replaces the pipeline's output token limit when present
   * @param structuredOutput how JSON answers are requested
   */
  public record Llm(LlmProvider provider, String model, Optional<String> baseUrl, String apiKeyEnv,
                    Optional<Path> apiKeyFile, Duration timeout, OptionalDouble temperature,
                    OptionalInt maxOutputTokens, StructuredOutput structuredOutput) {
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

    /** The provider's defaults: its default model and key variable, a 60 s timeout, schema output. */
    public static Llm of(LlmProvider provider) {
      return new Llm(provider, provider.defaultModel(), Optional.empty(), provider.defaultApiKeyEnv(),
          Optional.empty(), ModelSettings.DEFAULT_TIMEOUT, OptionalDouble.empty(), OptionalInt.empty(),
          StructuredOutput.SCHEMA);
    }

    public Llm withModel(String value) {
      return new Llm(provider, value, baseUrl, apiKeyEnv, apiKeyFile, timeout, temperature, maxOutputTokens,
          structuredOutput);
    }

    public Llm withBaseUrl(String value) {
      return new Llm(provider, model, Optional.of(value), apiKeyEnv, apiKeyFile, timeout, temperature,
          maxOutputTokens, structuredOutput);
    }

    public Llm withApiKeyEnv(String value) {
      return new Llm(provider, model, baseUrl, value, apiKeyFile, timeout, temperature, maxOutputTokens,
          structuredOutput);
    }

    public Llm withTimeout(Duration value) {
      return new Llm(provider, model, baseUrl, apiKeyEnv, apiKeyFile, value, temperature, maxOutputTokens,
          structuredOutput);
    }

    /** {@code openai/gpt-4o-mini}. */
    public String modelId() {
      return provider.configName() + "/" + model;
    }
  }

  /**
   * The embedder.
   *
   * @param provider    who computes the vectors
   * @param model       the model name ({@link OnnxEmbedders#names()} for {@code onnx})
   * @param baseUrl     the endpoint, empty for the provider's default
   * @param apiKeyEnv   the environment variable holding the key
   * @param apiKeyFile  a file holding the key, read instead of the variable when present
   * @param timeout     connect and read timeout of one call
   * @param dimensions  the vector size to ask for, when the model can shorten its vectors
   * @param queryPrefix text put before every query
   */
  public record Embedder(EmbedderProvider provider, String model, Optional<String> baseUrl, String apiKeyEnv,
                         Optional<Path> apiKeyFile, Duration timeout, OptionalInt dimensions, String queryPrefix) {
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
      return new Embedder(provider, provider.defaultModel(), Optional.empty(), provider.defaultApiKeyEnv(),
          Optional.empty(), ModelSettings.DEFAULT_TIMEOUT, OptionalInt.empty(), "");
    }

    public Embedder withModel(String value) {
      return new Embedder(provider, value, baseUrl, apiKeyEnv, apiKeyFile, timeout, dimensions, queryPrefix);
    }

    public Embedder withBaseUrl(String value) {
      return new Embedder(provider, model, Optional.of(value), apiKeyEnv, apiKeyFile, timeout, dimensions,
          queryPrefix);
    }
  }

  /**
   * The add pipeline.
   *
   * @param mode                 consolidate, additive or offline
   * @param recentMessages       messages of the scope shown to extraction (m in the paper)
   * @param similarMemories      memories shown per fact to consolidation (s in the paper)
   * @param customInstructions   what to remember and what to ignore, added to the extraction prompt
   * @param extractionPromptFile a file whose text replaces the built-in extraction prompt
   * @param maxAttempts          tries per language-model call, retrying rate limits, 5xx and timeouts
   * @param graph                true to keep the graph memory too (the LLM graph extractor with a language model,
   *                             the offline one without)
   * @param graphEntityThreshold name-embedding cosine from which a new entity name merges into an existing entity
   *                             without any model call (default 0.9)
   * @param graphAmbiguityFloor  name-embedding cosine from which, below the threshold, the graph extractor's model
   *                             decides whether a name is an existing entity (default 0.75)
   * @param sourceContext        whether new memories keep the words of their source messages for the context
   *                             ranking step ({@code Engram.Builder.sourceContext}; default true)
   * @param contextEmbeddings    whether new memories' source contexts are embedded too, for the context ranking
   *                             step ({@code Engram.Builder.contextEmbeddings}; default false)
   */
  public record Pipeline(PipelineMode mode, int recentMessages, int similarMemories,
                         Optional<String> customInstructions, Optional<Path> extractionPromptFile, int maxAttempts,
                         boolean graph, double graphEntityThreshold, double graphAmbiguityFloor,
                         boolean sourceContext, boolean contextEmbeddings) {
    /** Default entity-resolution thresholds, as in {@code Engram.builder()}. */
    public static final double DEFAULT_ENTITY_THRESHOLD = 0.9;
    public static final double DEFAULT_AMBIGUITY_FLOOR = 0.75;

    public Pipeline {
      if (!(graphEntityThreshold > 0 && graphEntityThreshold <= 1 && graphAmbiguityFloor > 0
          && graphAmbiguityFloor <= 1)) {
        throw new IllegalArgumentException("pipeline: graph thresholds must be in (0, 1]; got "
            + graphEntityThreshold + ", " + graphAmbiguityFloor);
      }
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(customInstructions, "customInstructions");
      Objects.requireNonNull(extractionPromptFile, "extractionPromptFile");
      if (recentMessages < 0 || similarMemories < 1 || maxAttempts < 1) {
        throw new IllegalArgumentException("pipeline: recentMessages >= 0, similarMemories >= 1, maxAttempts >= 1;"
            + " got " + recentMessages + ", " + similarMemories + ", " + maxAttempts);
      }
    }

    /** Source contexts kept or not, not embedded. */
    public Pipeline(PipelineMode mode, int recentMessages, int similarMemories, Optional<String> customInstructions,
                    Optional<Path> extractionPromptFile, int maxAttempts, boolean graph, double graphEntityThreshold,
                    double graphAmbiguityFloor, boolean sourceContext) {
      this(mode, recentMessages, similarMemories, customInstructions, extractionPromptFile, maxAttempts, graph,
          graphEntityThreshold, graphAmbiguityFloor, sourceContext, false);
    }

    /** Memories keep their source context ({@code Engram.Builder.sourceContext}), not embedded. */
    public Pipeline(PipelineMode mode, int recentMessages, int similarMemories, Optional<String> customInstructions,
                    Optional<Path> extractionPromptFile, int maxAttempts, boolean graph, double graphEntityThreshold,
                    double graphAmbiguityFloor) {
      this(mode, recentMessages, similarMemories, customInstructions, extractionPromptFile, maxAttempts, graph,
          graphEntityThreshold, graphAmbiguityFloor, true, false);
    }

    /** With the default entity-resolution thresholds; memories keep their source context. */
    public Pipeline(PipelineMode mode, int recentMessages, int similarMemories, Optional<String> customInstructions,
                    Optional<Path> extractionPromptFile, int maxAttempts, boolean graph) {
      this(mode, recentMessages, similarMemories, customInstructions, extractionPromptFile, maxAttempts, graph,
          DEFAULT_ENTITY_THRESHOLD, DEFAULT_AMBIGUITY_FLOOR, true, false);
    }

    /** 10 recent messages, 10 similar memories, 3 attempts, no custom instructions or prompt, no graph. */
    public static Pipeline of(PipelineMode mode) {
      return new Pipeline(mode, 10, 10, Optional.empty(), Optional.empty(), 3, false);
    }

    public Pipeline withMode(PipelineMode value) {
      return new Pipeline(value, recentMessages, similarMemories, customInstructions, extractionPromptFile,
          maxAttempts, graph, graphEntityThreshold, graphAmbiguityFloor, sourceContext, contextEmbeddings);
    }

    public Pipeline withGraph(boolean value) {
      return new Pipeline(mode, recentMessages, similarMemories, customInstructions, extractionPromptFile,
          maxAttempts, value, graphEntityThreshold, graphAmbiguityFloor, sourceContext, contextEmbeddings);
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
   * The graph store. Holds no password: the password is read from the variable {@code passwordEnv} or the file
   * {@code passwordFile} by {@link #password}, when the store is connected.
   *
   * @param provider     embedded or Neo4j
   * @param uri          the Neo4j URI ({@code neo4j://host:7687}, {@code bolt://host:7687}); required for Neo4j,
   *                     empty for the embedded store
   * @param user         the Neo4j user name; empty to connect without authentication
   * @param database     the Neo4j database name
   * @param passwordEnv  the environment variable holding the password
   * @param passwordFile a file holding the password, read instead of the variable when present
   */
  public record GraphStore(GraphStoreProvider provider, Optional<String> uri, String user, String database,
                           String passwordEnv, Optional<Path> passwordFile) {
    /** The database of a fresh Neo4j installation. */
    public static final String DEFAULT_DATABASE = "neo4j";
    /** The user name used when a password is set but no user is named. */
    public static final String DEFAULT_USER = "neo4j";
    /** The variable holding the password unless {@code password_env} names another. */
    public static final String DEFAULT_PASSWORD_ENV = "ENGRAM_NEO4J_PASSWORD";

    public GraphStore {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(database, "database");
      Objects.requireNonNull(passwordEnv, "passwordEnv");
      Objects.requireNonNull(passwordFile, "passwordFile");
      if (provider == GraphStoreProvider.NEO4J && uri.map(String::isBlank).orElse(true)) {
        throw new IllegalArgumentException("graph_store.uri is required for provider neo4j");
      }
      if (database.isBlank()) {
        throw new IllegalArgumentException("graph_store.database must not be blank");
      }
    }

    /** The graph in the data directory. */
    public static GraphStore embedded() {
      return new GraphStore(GraphStoreProvider.EMBEDDED, Optional.empty(), "", DEFAULT_DATABASE,
          DEFAULT_PASSWORD_ENV, Optional.empty());
    }

    /** Neo4j at {@code uri}, default database, no authentication unless {@link #withUser} is given. */
    public static GraphStore neo4j(String uri) {
      return new GraphStore(GraphStoreProvider.NEO4J, Optional.of(uri), "", DEFAULT_DATABASE, DEFAULT_PASSWORD_ENV,
          Optional.empty());
    }

    public GraphStore withUser(String value) {
      return new GraphStore(provider, uri, value, database, passwordEnv, passwordFile);
    }

    public GraphStore withDatabase(String value) {
      return new GraphStore(provider, uri, user, value, passwordEnv, passwordFile);
    }

    public GraphStore withPasswordEnv(String value) {
      return new GraphStore(provider, uri, user, database, value, passwordFile);
    }

    public GraphStore withPasswordFile(Path value) {
      return new GraphStore(provider, uri, user, database, passwordEnv, Optional.of(value));
    }

    /**
     * The password: the whole {@code passwordFile}, trimmed, if given, else the variable {@code passwordEnv};
     * empty if neither is set. Never logged; errors name the variable or the file, never the value.
     *
     * @throws dev.engram.ValidationException if the file cannot be read or is empty, or if a user is named and no
     *                                        password is set
     */
    public String password(java.util.Map<String, String> env) {
      return Secrets.password(passwordEnv, passwordFile, env, !user.isEmpty()).orElse("");
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

  /** How the PostgreSQL store keeps vectors ({@code store.vectors}). */
  public enum VectorChoice {
    /** pgvector if the server has it, else plain arrays with a warning. */
    AUTO,
    /** pgvector (a {@code vector(n)} column with an HNSW index); opening fails without the extension. */
    PGVECTOR,
    /** Plain {@code real[]} arrays scored exactly (in Java over the embedding cache, or in SQL). */
    ARRAY;

    /** The spelling in files, for example {@code pgvector}. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The memory store. Holds no password: it is read from the variable {@code passwordEnv} or the file
   * {@code passwordFile} by {@link #password}, when the store is connected.
   *
   * @param provider     embedded or PostgreSQL
   * @param url          the JDBC URL ({@code jdbc:postgresql://host:5432/db}); required for PostgreSQL, empty for
   *                     the embedded store
   * @param user         the database user
   * @param schema       the schema of Engram's tables
   * @param passwordEnv  the environment variable holding the password
   * @param passwordFile a file holding the password, read instead of the variable when present
   * @param vectors      how PostgreSQL stores and searches vectors: {@code auto}, {@code pgvector} or {@code array}
   * @param poolSize     connections per process (1 for PGlite)
   * @param exactSearchLimit on the pgvector path, the most memories a search restricts to that are scored exactly
   * @param vectorCacheMb on the plain-array path, MiB of decoded embeddings kept per process to score searches in
   *                     Java (0: scored in SQL)
   */
  public record Store(StoreProvider provider, Optional<String> url, String user, String schema, String passwordEnv,
                      Optional<Path> passwordFile, VectorChoice vectors, int poolSize, int exactSearchLimit,
                      int vectorCacheMb) {
    /** The user name used when none is named. */
    public static final String DEFAULT_USER = "postgres";
    /** The schema used when none is named. */
    public static final String DEFAULT_SCHEMA = "engram";
    /** The variable holding the password unless {@code password_env} names another. */
    public static final String DEFAULT_PASSWORD_ENV = "ENGRAM_POSTGRES_PASSWORD";
    /** Connections per process unless {@code pool_size} says otherwise. */
    public static final int DEFAULT_POOL_SIZE = 10;
    /** The exact-search limit unless {@code exact_search_limit} says otherwise. */
    public static final int DEFAULT_EXACT_SEARCH_LIMIT = 5_000;
    /** The plain-array path's embedding cache unless {@code vector_cache_mb} says otherwise, in MiB. */
    public static final int DEFAULT_VECTOR_CACHE_MB = 256;

    public Store {
      Objects.requireNonNull(provider, "provider");
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(user, "user");
      Objects.requireNonNull(schema, "schema");
      Objects.requireNonNull(passwordEnv, "passwordEnv");
      Objects.requireNonNull(passwordFile, "passwordFile");
      Objects.requireNonNull(vectors, "vectors");
      if (poolSize < 1) {
        throw new IllegalArgumentException("store.pool_size must be at least 1, got " + poolSize);
      }
      if (exactSearchLimit < 0) {
        throw new IllegalArgumentException("store.exact_search_limit must not be negative, got " + exactSearchLimit);
      }
      if (vectorCacheMb < 0) {
        throw new IllegalArgumentException("store.vector_cache_mb must not be negative, got " + vectorCacheMb);
      }
      if (provider == StoreProvider.POSTGRES && url.map(String::isBlank).orElse(true)) {
        throw new IllegalArgumentException("store.url is required for provider postgres");
      }
    }

    /** Memories in the data directory. */
    public static Store embedded() {
      return new Store(StoreProvider.EMBEDDED, Optional.empty(), DEFAULT_USER, DEFAULT_SCHEMA, DEFAULT_PASSWORD_ENV,
          Optional.empty(), VectorChoice.AUTO, DEFAULT_POOL_SIZE, DEFAULT_EXACT_SEARCH_LIMIT,
          DEFAULT_VECTOR_CACHE_MB);
    }

    /** PostgreSQL at {@code url}, user {@value #DEFAULT_USER}, schema {@value #DEFAULT_SCHEMA}. */
    public static Store postgres(String url) {
      return new Store(StoreProvider.POSTGRES, Optional.of(url), DEFAULT_USER, DEFAULT_SCHEMA, DEFAULT_PASSWORD_ENV,
          Optional.empty(), VectorChoice.AUTO, DEFAULT_POOL_SIZE, DEFAULT_EXACT_SEARCH_LIMIT,
          DEFAULT_VECTOR_CACHE_MB);
    }

    public Store withUser(String value) {
      return new Store(provider, url, value, schema, passwordEnv, passwordFile, vectors, poolSize,
          exactSearchLimit, vectorCacheMb);
    }

    public Store withSchema(String value) {
      return new Store(provider, url, user, value, passwordEnv, passwordFile, vectors, poolSize,
          exactSearchLimit, vectorCacheMb);
    }

    public Store withVectors(VectorChoice value) {
      return new Store(provider, url, user, schema, passwordEnv, passwordFile, value, poolSize, exactSearchLimit,
          vectorCacheMb);
    }

    public Store withPoolSize(int value) {
      return new Store(provider, url, user, schema, passwordEnv, passwordFile, vectors, value, exactSearchLimit,
          vectorCacheMb);
    }

    public Store withVectorCacheMb(int value) {
      return new Store(provider, url, user, schema, passwordEnv, passwordFile, vectors, poolSize, exactSearchLimit,
          value);
    }

    public Store withExactSearchLimit(int value) {
      return new Store(provider, url, user, schema, passwordEnv, passwordFile, vectors, poolSize, value,
          vectorCacheMb);
    }

    public Store withPasswordEnv(String value) {
      return new Store(provider, url, user, schema, value, passwordFile, vectors, poolSize,
          exactSearchLimit, vectorCacheMb);
    }

    public Store withPasswordFile(Path value) {
      return new Store(provider, url, user, schema, passwordEnv, Optional.of(value), vectors, poolSize,
          exactSearchLimit, vectorCacheMb);
    }

    /**
     * The password: the whole {@code passwordFile}, trimmed, if given, else the variable {@code passwordEnv}; empty
     * if neither is set (a server that trusts the connection). Never logged; errors name the variable or the file.
     *
     * @throws dev.engram.ValidationException if the file cannot be read or is empty
     */
    public Optional<String> password(java.util.Map<String, String> env) {
      return Secrets.storePassword(passwordEnv, passwordFile, env);
    }
  }
}

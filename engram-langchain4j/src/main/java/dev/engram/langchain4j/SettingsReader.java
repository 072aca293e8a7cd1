package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ValidationException;
import dev.engram.langchain4j.EngramSettings.EmbedderProvider;
import dev.engram.langchain4j.EngramSettings.GraphStoreProvider;
import dev.engram.langchain4j.EngramSettings.LlmProvider;
import dev.engram.langchain4j.EngramSettings.PipelineMode;
import dev.engram.neo4j.Neo4jSettings;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.VectorMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Builds the {@link EngramSettings} records from checked YAML sections, applying defaults. */
final class SettingsReader {
  private SettingsReader() {}

  static EngramSettings.Llm llm(YamlFields f, ObjectNode n, Map<String, String> env) {
    String providerName =
        f.text(n, "llm", "provider")
            .orElseThrow(
                () ->
                    new ValidationException(
                        "llm.provider",
                        "missing in "
                            + f.source()
                            + " (one of openai, anthropic, ollama, gemini)"));
    LlmProvider provider =
        YamlFields.choice(LlmProvider.class, providerName, "llm.provider", f.source());
    StructuredOutput structured =
        f.text(n, "llm", "structured_output")
            .map(
                v ->
                    YamlFields.choice(
                        StructuredOutput.class, v, "llm.structured_output", f.source()))
            .orElse(StructuredOutput.SCHEMA);
    EngramSettings.Llm llm =
        new EngramSettings.Llm(
            provider,
            f.text(n, "llm", "model").orElse(provider.defaultModel()),
            f.text(n, "llm", "base_url"),
            f.text(n, "llm", "api_key_env").orElse(provider.defaultApiKeyEnv()),
            f.path(n, "llm", "api_key_file"),
            f.seconds(n, "llm", "timeout_seconds").orElse(ModelSettings.DEFAULT_TIMEOUT),
            f.decimal(n, "llm", "temperature", 0, 2),
            f.integer(n, "llm", "max_output_tokens", 1),
            structured);
    Secrets.apiKey(
        "llm",
        provider.configName(),
        llm.apiKeyEnv(),
        llm.apiKeyFile(),
        env,
        Providers.needsKey(provider, llm.baseUrl()));
    return llm;
  }

  static EngramSettings.Embedder embedder(YamlFields f, ObjectNode n, Map<String, String> env) {
    EmbedderProvider provider =
        f.text(n, "embedder", "provider")
            .map(v -> YamlFields.choice(EmbedderProvider.class, v, "embedder.provider", f.source()))
            .orElse(EmbedderProvider.ONNX);
    EngramSettings.Embedder e =
        new EngramSettings.Embedder(
            provider,
            f.text(n, "embedder", "model").orElse(provider.defaultModel()),
            f.text(n, "embedder", "base_url"),
            f.text(n, "embedder", "api_key_env").orElse(provider.defaultApiKeyEnv()),
            f.path(n, "embedder", "api_key_file"),
            f.seconds(n, "embedder", "timeout_seconds").orElse(ModelSettings.DEFAULT_TIMEOUT),
            f.integer(n, "embedder", "dimensions", 1),
            Optional.ofNullable(n.get("query_prefix")).map(q -> q.asText()).orElse(""));
    if (provider == EmbedderProvider.ONNX && !OnnxEmbedders.names().contains(e.model())) {
      throw new ValidationException(
          "embedder.model",
          "unknown in-process model '"
              + e.model()
              + "' in "
              + f.source()
              + " (expected one of "
              + String.join(", ", OnnxEmbedders.names())
              + ")");
    }
    if (provider != EmbedderProvider.ONNX) {
      Secrets.apiKey(
          "embedder",
          provider.configName(),
          e.apiKeyEnv(),
          e.apiKeyFile(),
          env,
          Providers.needsKey(provider, e.baseUrl()));
    }
    return e;
  }

  static EngramSettings.Reranker reranker(
      YamlFields f, ObjectNode n, Map<String, String> env, boolean hasLlm) {
    String providerName =
        f.text(n, "reranker", "provider")
            .orElseThrow(
                () ->
                    new ValidationException(
                        "reranker.provider",
                        "missing in " + f.source() + " (one of cohere, jina, voyage, llm)"));
    EngramSettings.RerankerProvider provider =
        YamlFields.choice(
            EngramSettings.RerankerProvider.class, providerName, "reranker.provider", f.source());
    int candidates =
        f.integer(n, "reranker", "candidates", 1)
            .orElse(dev.engram.spi.Reranker.DEFAULT_CANDIDATES);
    if (candidates > dev.engram.SearchRequest.MAX_TOP_K) {
      throw new ValidationException(
          "reranker.candidates",
          "must be at most "
              + dev.engram.SearchRequest.MAX_TOP_K
              + ", got "
              + candidates
              + " (in "
              + f.source()
              + ")");
    }
    if (provider == EngramSettings.RerankerProvider.LLM) {
      for (String key : SettingsLoader.RERANKER_KEYS.subList(1, 6)) {
        if (n.hasNonNull(key)) {
          throw new ValidationException(
              "reranker." + key,
              "is not used with provider llm, which calls the model of"
                  + " the llm section; remove it from "
                  + f.source());
        }
      }
      if (!hasLlm) {
        throw new ValidationException(
            "reranker.provider",
            "'llm' needs a language model: add an llm section to "
                + f.source()
                + " or set ENGRAM_LLM_PROVIDER");
      }
      return new EngramSettings.Reranker(
          provider,
          "",
          Optional.empty(),
          "",
          Optional.empty(),
          EngramSettings.Reranker.DEFAULT_TIMEOUT,
          candidates);
    }
    RerankApi api = provider.api().orElseThrow();
    EngramSettings.Reranker r =
        new EngramSettings.Reranker(
            provider,
            f.text(n, "reranker", "model").orElse(api.defaultModel()),
            f.text(n, "reranker", "base_url"),
            f.text(n, "reranker", "api_key_env").orElse(api.defaultApiKeyEnv()),
            f.path(n, "reranker", "api_key_file"),
            f.seconds(n, "reranker", "timeout_seconds")
                .orElse(EngramSettings.Reranker.DEFAULT_TIMEOUT),
            candidates);
    Secrets.apiKey(
        "reranker",
        provider.configName(),
        r.apiKeyEnv(),
        r.apiKeyFile(),
        env,
        r.baseUrl().isEmpty());
    return r;
  }

  static EngramSettings.GraphStore graphStore(YamlFields f, ObjectNode n, Map<String, String> env) {
    GraphStoreProvider provider =
        f.text(n, "graph_store", "provider")
            .map(
                v ->
                    YamlFields.choice(
                        GraphStoreProvider.class, v, "graph_store.provider", f.source()))
            .orElse(GraphStoreProvider.EMBEDDED);
    if (provider == GraphStoreProvider.EMBEDDED) {
      for (String key : SettingsLoader.NEO4J_KEYS) {
        if (n.hasNonNull(key)) {
          throw new ValidationException(
              "graph_store." + key,
              "is only used with the Neo4j graph store; add"
                  + " provider: neo4j to graph_store in "
                  + f.source()
                  + " (or set "
                  + SettingsLoader.GRAPH_STORE_ENV
                  + "=neo4j), or remove the key");
        }
      }
      return EngramSettings.GraphStore.embedded();
    }
    String uri =
        f.text(n, "graph_store", "uri")
            .orElseThrow(
                () ->
                    new ValidationException(
                        "graph_store.uri",
                        "missing in "
                            + f.source()
                            + "; the Neo4j graph store needs the server's URI, for example"
                            + " neo4j://localhost:7687 (or set "
                            + SettingsLoader.NEO4J_URI_ENV
                            + ")"));
    if (!uri.matches("(?i)(neo4j|bolt)(\\+s|\\+ssc)?://\\S+")) {
      throw new ValidationException(
          "graph_store.uri",
          "expected a neo4j:// or bolt:// URI (optionally +s or +ssc)"
              + " in "
              + f.source()
              + ", got '"
              + uri
              + "'");
    }
    String passwordEnv =
        f.text(n, "graph_store", "password_env")
            .orElse(EngramSettings.GraphStore.DEFAULT_PASSWORD_ENV);
    Optional<Path> passwordFile = f.path(n, "graph_store", "password_file");
    Optional<String> user = f.text(n, "graph_store", "user");
    // Validates the password now (a named user needs one), so that a missing one fails at start-up.
    boolean hasPassword =
        Secrets.password(passwordEnv, passwordFile, env, user.isPresent()).isPresent();
    String userName = user.orElse(hasPassword ? EngramSettings.GraphStore.DEFAULT_USER : "");
    Neo4jSettings server =
        new Neo4jSettings(
            uri,
            userName,
            "",
            f.text(n, "graph_store", "database").orElse(Neo4jSettings.DEFAULT_DATABASE));
    return new EngramSettings.GraphStore(Optional.of(server), passwordEnv, passwordFile);
  }

  static EngramSettings.Store store(YamlFields f, ObjectNode n, Map<String, String> env) {
    EngramSettings.StoreProvider provider =
        f.text(n, "store", "provider")
            .map(
                v ->
                    YamlFields.choice(
                        EngramSettings.StoreProvider.class, v, "store.provider", f.source()))
            .orElse(EngramSettings.StoreProvider.EMBEDDED);
    if (provider == EngramSettings.StoreProvider.EMBEDDED) {
      for (String key : SettingsLoader.STORE_KEYS.subList(1, SettingsLoader.STORE_KEYS.size())) {
        if (n.hasNonNull(key)) {
          throw new ValidationException(
              "store." + key,
              "is only used with the PostgreSQL store; add provider:"
                  + " postgres to store in "
                  + f.source()
                  + " (or set "
                  + SettingsLoader.STORE_ENV
                  + "=postgres), or"
                  + " remove the key");
        }
      }
      return EngramSettings.Store.embedded();
    }
    String url =
        f.text(n, "store", "url")
            .orElseThrow(
                () ->
                    new ValidationException(
                        "store.url",
                        "missing in "
                            + f.source()
                            + "; the PostgreSQL store needs a JDBC URL, for example jdbc:postgresql://localhost:5432/engram"
                            + " (or set "
                            + SettingsLoader.POSTGRES_URL_ENV
                            + ")"));
    if (!url.startsWith("jdbc:postgresql://")) {
      throw new ValidationException(
          "store.url",
          "expected a jdbc:postgresql:// URL in " + f.source() + ", got '" + url + "'");
    }
    PostgresSettings.Builder database = PostgresSettings.builder(url);
    f.text(n, "store", "user").ifPresent(database::user);
    Optional<String> schema = f.text(n, "store", "schema");
    if (schema.isPresent() && !schema.get().matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new ValidationException(
          "store.schema",
          "must be a lower-case SQL identifier (letters, digits, _) in "
              + f.source()
              + ", got '"
              + schema.get()
              + "'");
    }
    schema.ifPresent(database::schema);
    String passwordEnv =
        f.text(n, "store", "password_env").orElse(EngramSettings.Store.DEFAULT_PASSWORD_ENV);
    Optional<Path> passwordFile = f.path(n, "store", "password_file");
    Secrets.storePassword(
        passwordEnv, passwordFile, env); // an unreadable or empty file fails at start-up
    f.text(n, "store", "vectors")
        .map(v -> YamlFields.choice(VectorMode.class, v, "store.vectors", f.source()))
        .ifPresent(database::vectors);
    f.integer(n, "store", "pool_size", 1).ifPresent(database::poolSize);
    f.integer(n, "store", "exact_search_limit", 0).ifPresent(database::exactSearchLimit);
    f.integer(n, "store", "vector_cache_mb", 0).ifPresent(database::vectorCacheMb);
    return new EngramSettings.Store(Optional.of(database.build()), passwordEnv, passwordFile);
  }

  static EngramSettings.Pipeline pipeline(
      YamlFields f, ObjectNode n, boolean hasLlm, boolean graphStoreNeo4j) {
    PipelineMode mode =
        f.text(n, "pipeline", "mode")
            .map(v -> YamlFields.choice(PipelineMode.class, v, "pipeline.mode", f.source()))
            .orElse(SettingsLoader.defaultMode(hasLlm));
    if (mode != PipelineMode.OFFLINE && !hasLlm) {
      throw new ValidationException(
          "pipeline.mode",
          "'"
              + mode.configName()
              + "' needs a language model: add an"
              + " llm section to "
              + f.source()
              + " or set ENGRAM_LLM_PROVIDER, or use mode: offline");
    }
    Optional<Path> prompt = f.path(n, "pipeline", "extraction_prompt_file");
    if (prompt.isPresent() && !Files.isRegularFile(prompt.get())) {
      throw new ValidationException(
          "pipeline.extraction_prompt_file",
          "file not found: " + prompt.get() + " (named in " + f.source() + ")");
    }
    EngramSettings.Pipeline.Builder pipeline = EngramSettings.Pipeline.builder(mode);
    f.integer(n, "pipeline", "recent_messages", 0).ifPresent(pipeline::recentMessages);
    f.integer(n, "pipeline", "similar_memories", 1).ifPresent(pipeline::similarMemories);
    pipeline
        .customInstructions(f.text(n, "pipeline", "custom_instructions"))
        .extractionPromptFile(prompt);
    f.integer(n, "pipeline", "max_attempts", 1).ifPresent(pipeline::maxAttempts);
    pipeline.graph(graph(f, n, graphStoreNeo4j));
    f.decimal(n, "pipeline", "graph_entity_threshold", 0.01, 1)
        .ifPresent(pipeline::graphEntityThreshold);
    f.decimal(n, "pipeline", "graph_ambiguity_floor", 0.01, 1)
        .ifPresent(pipeline::graphAmbiguityFloor);
    f.text(n, "pipeline", "source_context")
        .ifPresent(v -> pipeline.sourceContext(bool(v, "pipeline.source_context", f.source())));
    f.text(n, "pipeline", "context_embeddings")
        .ifPresent(
            v -> pipeline.contextEmbeddings(bool(v, "pipeline.context_embeddings", f.source())));
    return pipeline.build();
  }

  /**
   * {@code pipeline.graph}: off by default, on with the Neo4j graph store (where turning it off is
   * an error).
   */
  private static boolean graph(YamlFields f, ObjectNode n, boolean graphStoreNeo4j) {
    Optional<Boolean> graph =
        f.text(n, "pipeline", "graph").map(v -> bool(v, "pipeline.graph", f.source()));
    if (graphStoreNeo4j && graph.equals(Optional.of(false))) {
      throw new ValidationException(
          "pipeline.graph",
          "is false in "
              + f.source()
              + ", but graph_store.provider"
              + " is neo4j, which exists only for the graph memory: remove pipeline.graph or use the embedded store");
    }
    return graph.orElse(graphStoreNeo4j);
  }

  private static boolean bool(String value, String field, String source) {
    return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new ValidationException(
              field, "must be true or false, got '" + value + "' (in " + source + ")");
    };
  }
}

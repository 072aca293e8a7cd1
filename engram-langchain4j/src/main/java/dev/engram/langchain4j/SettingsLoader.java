package dev.engram.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.engram.ValidationException;
import dev.engram.langchain4j.EngramSettings.EmbedderProvider;
import dev.engram.langchain4j.EngramSettings.LlmProvider;
import dev.engram.langchain4j.EngramSettings.PipelineMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads {@code engram.yaml} into {@link EngramSettings}. Environment variables override the file
 * ({@code ENGRAM_LLM_PROVIDER}, {@code ENGRAM_LLM_MODEL}, {@code ENGRAM_LLM_BASE_URL}, {@code
 * ENGRAM_EMBEDDER}, {@code ENGRAM_DATA_DIR}, {@code ENGRAM_GRAPH_STORE}, {@code ENGRAM_NEO4J_URI},
 * {@code ENGRAM_NEO4J_USER}, {@code ENGRAM_NEO4J_DATABASE}); the environment is passed in as a map
 * so that tests need not touch the real one. API keys and the Neo4j password are never read from
 * the file: an {@code api_key} or {@code password} key is rejected, and the variable named by
 * {@code api_key_env} or {@code password_env} (or the secrets file) is checked here so that a
 * missing secret fails at start-up with the variable's name. Unknown keys are rejected with their
 * dotted name and the file. See docs/CONFIGURATION.md.
 */
public final class SettingsLoader {
  /** The file name looked for in the working directory. */
  public static final String FILE_NAME = "engram.yaml";

  /** The variable that names the configuration file. */
  public static final String CONFIG_ENV = "ENGRAM_CONFIG";

  /** The variable that chooses the graph store ({@code embedded} or {@code neo4j}). */
  public static final String GRAPH_STORE_ENV = "ENGRAM_GRAPH_STORE";

  /** The variable that overrides {@code graph_store.uri}. */
  public static final String NEO4J_URI_ENV = "ENGRAM_NEO4J_URI";

  /** The variable that overrides {@code graph_store.user}. */
  public static final String NEO4J_USER_ENV = "ENGRAM_NEO4J_USER";

  /** The variable that overrides {@code graph_store.database}. */
  public static final String NEO4J_DATABASE_ENV = "ENGRAM_NEO4J_DATABASE";

  /** The variable that chooses the memory store ({@code embedded} or {@code postgres}). */
  public static final String STORE_ENV = "ENGRAM_STORE";

  /** The variable that overrides {@code store.url}. */
  public static final String POSTGRES_URL_ENV = "ENGRAM_POSTGRES_URL";

  static final List<String> ROOT_KEYS =
      List.of(
          "llm", "embedder", "pipeline", "data_dir", "graph_store", "store", "server", "reranker");
  static final List<String> RERANKER_KEYS =
      List.of(
          "provider",
          "model",
          "base_url",
          "api_key_env",
          "api_key_file",
          "timeout_seconds",
          "candidates");
  static final List<String> STORE_KEYS =
      List.of(
          "provider",
          "url",
          "user",
          "schema",
          "password_env",
          "password_file",
          "vectors",
          "pool_size",
          "exact_search_limit",
          "vector_cache_mb");
  static final List<String> LLM_KEYS =
      List.of(
          "provider",
          "model",
          "base_url",
          "api_key_env",
          "api_key_file",
          "timeout_seconds",
          "temperature",
          "max_output_tokens",
          "structured_output");
  static final List<String> EMBEDDER_KEYS =
      List.of(
          "provider",
          "model",
          "base_url",
          "api_key_env",
          "api_key_file",
          "timeout_seconds",
          "dimensions",
          "query_prefix");
  static final List<String> PIPELINE_KEYS =
      List.of(
          "mode",
          "recent_messages",
          "similar_memories",
          "custom_instructions",
          "extraction_prompt_file",
          "max_attempts",
          "graph",
          "graph_entity_threshold",
          "graph_ambiguity_floor",
          "source_context",
          "context_embeddings");
  static final List<String> GRAPH_STORE_KEYS =
      List.of("provider", "uri", "user", "database", "password_env", "password_file");

  /** Keys of {@code graph_store} that only Neo4j uses. */
  static final List<String> NEO4J_KEYS = GRAPH_STORE_KEYS.subList(1, GRAPH_STORE_KEYS.size());

  /** Keys that belong to one provider and are dropped when the environment switches to another. */
  private static final List<String> PROVIDER_KEYS =
      List.of("model", "base_url", "api_key_env", "api_key_file");

  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

  private SettingsLoader() {}

  /** Reads {@code file}, then applies {@code env}. */
  public static EngramSettings load(Path file, Map<String, String> env) {
    Objects.requireNonNull(file, "file");
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ValidationException("config", "configuration file not found: " + file);
    } catch (IOException e) {
      throw new ValidationException(
          "config", "cannot read configuration file " + file + ": " + e.getMessage());
    }
    Path dir = file.toAbsolutePath().getParent();
    return parse(text, file.toString(), dir == null ? Path.of("").toAbsolutePath() : dir, env);
  }

  /** Defaults plus {@code env}, for running without a file. */
  public static EngramSettings fromEnvironment(Map<String, String> env) {
    return parse("", "the environment", Path.of("").toAbsolutePath(), env);
  }

  /**
   * The file named by {@code ENGRAM_CONFIG}, else {@code engram.yaml} in {@code workingDir} if it
   * exists.
   */
  public static Optional<Path> locate(Map<String, String> env, Path workingDir) {
    String named = env.get(CONFIG_ENV);
    if (named != null && !named.isBlank()) {
      return Optional.of(YamlFields.expandHome(named, workingDir));
    }
    Path local = workingDir.resolve(FILE_NAME);
    return Files.isRegularFile(local) ? Optional.of(local) : Optional.empty();
  }

  /** {@link #load} on the file {@link #locate} finds, else {@link #fromEnvironment}. */
  public static EngramSettings loadDefault(Map<String, String> env, Path workingDir) {
    Optional<Path> file = locate(env, workingDir);
    return file.isPresent() ? load(file.get(), env) : fromEnvironment(env);
  }

  /**
   * Parses YAML text.
   *
   * @param yaml the text (may be empty)
   * @param source the file name for messages
   * @param baseDir what relative paths in the file are resolved against
   * @param env the environment
   */
  public static EngramSettings parse(
      String yaml, String source, Path baseDir, Map<String, String> env) {
    Objects.requireNonNull(env, "env");
    YamlFields f = new YamlFields(source, baseDir);
    ObjectNode root = readRoot(yaml, source);
    f.checkKeys(root, "", ROOT_KEYS);
    Optional<ObjectNode> llmNode = overrideLlm(f.section(root, "llm", LLM_KEYS), env, source);
    ObjectNode embNode = overrideEmbedder(f.section(root, "embedder", EMBEDDER_KEYS), env);
    ObjectNode pipeNode =
        f.section(root, "pipeline", PIPELINE_KEYS).orElseGet(JsonNodeFactory.instance::objectNode);
    ObjectNode graphNode =
        overrideGraphStore(f.section(root, "graph_store", GRAPH_STORE_KEYS), env, source);
    ObjectNode storeNode =
        f.section(root, "store", STORE_KEYS).orElseGet(JsonNodeFactory.instance::objectNode);
    overrideText(storeNode, "provider", env.get(STORE_ENV));
    overrideText(storeNode, "url", env.get(POSTGRES_URL_ENV));

    Optional<EngramSettings.Llm> llm = llmNode.map(n -> SettingsReader.llm(f, n, env));
    EngramSettings.Embedder embedder = SettingsReader.embedder(f, embNode, env);
    EngramSettings.GraphStore graphStore = SettingsReader.graphStore(f, graphNode, env);
    EngramSettings.Pipeline pipeline =
        SettingsReader.pipeline(
            f,
            pipeNode,
            llm.isPresent(),
            graphStore.provider() == EngramSettings.GraphStoreProvider.NEO4J);
    String dataEnv = env.get("ENGRAM_DATA_DIR");
    Path dataDir =
        dataEnv != null && !dataEnv.isBlank()
            ? YamlFields.expandHome(dataEnv, Path.of("").toAbsolutePath())
            : f.path(root, "", "data_dir").orElseGet(EngramSettings::defaultDataDir);
    Optional<EngramSettings.Reranker> reranker =
        f.section(root, "reranker", RERANKER_KEYS)
            .map(n -> SettingsReader.reranker(f, n, env, llm.isPresent()));
    return new EngramSettings(
        llm,
        embedder,
        pipeline,
        dataDir,
        graphStore,
        SettingsReader.store(f, storeNode, env),
        reranker);
  }

  private static void overrideText(ObjectNode node, String key, String value) {
    if (value != null && !value.isBlank()) {
      node.put(key, value.trim());
    }
  }

  private static ObjectNode readRoot(String yaml, String source) {
    JsonNode root;
    try {
      root = yaml.isBlank() ? null : YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw new ValidationException(
          "config",
          "cannot parse "
              + source
              + ": "
              + e.getOriginalMessage()
              + (e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ")"));
    }
    if (root == null || root.isNull() || root.isMissingNode()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (!root.isObject()) {
      throw new ValidationException(
          "config",
          source
              + " must be a mapping of keys ("
              + String.join(", ", ROOT_KEYS)
              + "), got '"
              + root.asText()
              + "'");
    }
    return (ObjectNode) root;
  }

  private static Optional<ObjectNode> overrideLlm(
      Optional<ObjectNode> fromFile, Map<String, String> env, String source) {
    String provider = value(env, "ENGRAM_LLM_PROVIDER");
    if (provider != null
        && (provider.equalsIgnoreCase("none") || provider.equalsIgnoreCase("off"))) {
      return Optional.empty();
    }
    String model = value(env, "ENGRAM_LLM_MODEL");
    String baseUrl = value(env, "ENGRAM_LLM_BASE_URL");
    if (fromFile.isEmpty() && provider == null) {
      if (model != null || baseUrl != null) {
        throw new ValidationException(
            model != null ? "ENGRAM_LLM_MODEL" : "ENGRAM_LLM_BASE_URL",
            "is set but no"
                + " language model is configured: set ENGRAM_LLM_PROVIDER or add an llm section to "
                + source);
      }
      return Optional.empty();
    }
    ObjectNode n =
        fromFile.map(ObjectNode::deepCopy).orElseGet(JsonNodeFactory.instance::objectNode);
    if (provider != null) {
      LlmProvider p =
          YamlFields.choice(LlmProvider.class, provider, "ENGRAM_LLM_PROVIDER", "the environment");
      switchProvider(n, p.configName());
    }
    if (model != null) {
      n.put("model", model);
    }
    if (baseUrl != null) {
      n.put("base_url", baseUrl);
    }
    return Optional.of(n);
  }

  private static ObjectNode overrideEmbedder(
      Optional<ObjectNode> fromFile, Map<String, String> env) {
    ObjectNode n =
        fromFile.map(ObjectNode::deepCopy).orElseGet(JsonNodeFactory.instance::objectNode);
    String spec = value(env, "ENGRAM_EMBEDDER");
    if (spec != null) {
      int colon = spec.indexOf(':');
      String provider = colon < 0 ? spec : spec.substring(0, colon);
      EmbedderProvider p =
          YamlFields.choice(EmbedderProvider.class, provider, "ENGRAM_EMBEDDER", "the environment");
      switchProvider(n, p.configName());
      if (colon >= 0 && colon < spec.length() - 1) {
        n.put("model", spec.substring(colon + 1).trim());
      }
    }
    return n;
  }

  /**
   * Applies {@value #GRAPH_STORE_ENV} and the {@code ENGRAM_NEO4J_*} variables to the {@code
   * graph_store} section. A provider different from the file's drops the file's Neo4j keys; a Neo4j
   * variable without the Neo4j store is an error, so that a half-configured store is never silently
   * ignored.
   */
  private static ObjectNode overrideGraphStore(
      Optional<ObjectNode> fromFile, Map<String, String> env, String source) {
    ObjectNode n =
        fromFile.map(ObjectNode::deepCopy).orElseGet(JsonNodeFactory.instance::objectNode);
    String provider = value(env, GRAPH_STORE_ENV);
    if (provider != null) {
      EngramSettings.GraphStoreProvider p =
          YamlFields.choice(
              EngramSettings.GraphStoreProvider.class,
              provider,
              GRAPH_STORE_ENV,
              "the environment");
      JsonNode old = n.get("provider");
      if (old != null && !old.asText().trim().equalsIgnoreCase(p.configName())) {
        NEO4J_KEYS.forEach(n::remove);
      }
      n.put("provider", p.configName());
    }
    Map<String, String> overrides = new java.util.LinkedHashMap<>();
    overrides.put(NEO4J_URI_ENV, "uri");
    overrides.put(NEO4J_USER_ENV, "user");
    overrides.put(NEO4J_DATABASE_ENV, "database");
    JsonNode chosen = n.get("provider");
    boolean neo4j =
        chosen != null
            && chosen.isValueNode()
            && chosen
                .asText()
                .trim()
                .equalsIgnoreCase(EngramSettings.GraphStoreProvider.NEO4J.configName());
    for (Map.Entry<String, String> o : overrides.entrySet()) {
      String v = value(env, o.getKey());
      if (v == null) {
        continue;
      }
      if (!neo4j) {
        throw new ValidationException(
            o.getKey(),
            "is set but the graph store is not Neo4j: set "
                + GRAPH_STORE_ENV
                + "=neo4j or graph_store.provider: neo4j in "
                + source
                + ", or unset "
                + o.getKey());
      }
      n.put(o.getValue(), v);
    }
    return n;
  }

  /** Sets the provider; a different one than the file's drops the file's provider-specific keys. */
  private static void switchProvider(ObjectNode n, String provider) {
    JsonNode old = n.get("provider");
    if (old != null && !old.asText().trim().equalsIgnoreCase(provider)) {
      PROVIDER_KEYS.forEach(n::remove);
    }
    n.put("provider", provider);
  }

  private static String value(Map<String, String> env, String name) {
    String v = env.get(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** For {@link SettingsReader}: the pipeline mode when none is given. */
  static PipelineMode defaultMode(boolean hasLlm) {
    return hasLlm ? PipelineMode.CONSOLIDATE : PipelineMode.OFFLINE;
  }
}

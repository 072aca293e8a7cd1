package dev.engram.langchain4j;

import dev.engram.langchain4j.EngramSettings.EmbedderProvider;
import dev.engram.langchain4j.EngramSettings.LlmProvider;
import dev.engram.onnx.LangChain4jEmbedder;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.pipeline.LlmReranker;
import dev.engram.pipeline.ModelCaller;
import dev.engram.spi.Embedder;
import dev.engram.spi.LanguageModel;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.ollama.OllamaEmbeddingModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Factories for language models and embedders over LangChain4j, from {@link ModelSettings} (code)
 * or {@link EngramSettings} (the configuration file). Every model is built with no retries of its
 * own (the pipeline retries with backoff), the JDK HTTP client (HTTP/1.1 for plain {@code http://}
 * endpoints, which local servers handle best) and the configured timeout for connecting and for
 * reading.
 *
 * <p>Building a language model makes no network call. Building an OpenAI or Ollama embedder may
 * make one: LangChain4j asks the server for the vector size of a model it does not know.
 */
public final class Providers {
  /** OpenAI's public endpoint. */
  public static final String OPENAI_URL = "https://api.openai.com/v1";

  /** Ollama's local endpoint. */
  public static final String OLLAMA_URL = "http://localhost:11434";

  private Providers() {}

  /**
   * The language model configured by {@code llm}; the API key comes from {@code env} or the secrets
   * file.
   */
  public static LanguageModel languageModel(EngramSettings.Llm llm, Map<String, String> env) {
    Objects.requireNonNull(llm, "llm");
    Objects.requireNonNull(env, "env");
    Optional<String> key =
        Secrets.apiKey(
            "llm",
            llm.provider().configName(),
            llm.apiKeyEnv(),
            llm.apiKeyFile(),
            env,
            needsKey(llm.provider(), llm.baseUrl()));
    ModelSettings.Builder b =
        endpoint(llm.model(), llm.baseUrl(), key, llm.timeout())
            .structuredOutput(llm.structuredOutput());
    llm.temperature().ifPresent(b::temperature);
    llm.maxOutputTokens().ifPresent(b::maxOutputTokens);
    ModelSettings s = b.build();
    return switch (llm.provider()) {
      case OPENAI -> openAi(s);
      case ANTHROPIC -> anthropic(s);
      case OLLAMA -> ollama(s);
      default -> gemini(s);
    };
  }

  /**
   * The embedder configured by {@code embedder}; {@code onnx} runs in process, the others over
   * HTTP.
   */
  public static Embedder embedder(EngramSettings.Embedder embedder, Map<String, String> env) {
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(env, "env");
    if (embedder.provider() == EmbedderProvider.ONNX) {
      return OnnxEmbedders.byName(embedder.model());
    }
    Optional<String> key =
        Secrets.apiKey(
            "embedder",
            embedder.provider().configName(),
            embedder.apiKeyEnv(),
            embedder.apiKeyFile(),
            env,
            needsKey(embedder.provider(), embedder.baseUrl()));
    ModelSettings.Builder b =
        endpoint(embedder.model(), embedder.baseUrl(), key, embedder.timeout())
            .queryPrefix(embedder.queryPrefix());
    embedder.dimensions().ifPresent(b::dimensions);
    return embedder.provider() == EmbedderProvider.OPENAI
        ? openAiEmbedder(b.build())
        : ollamaEmbedder(b.build());
  }

  /**
   * The reranker configured by {@code reranker}: a hosted rerank API ({@link ScoringModelReranker}
   * over {@link RerankApiScoringModel}; a key is required for the public endpoints, optional with a
   * {@code base_url}), or, for {@code llm}, the {@link dev.engram.pipeline.LlmReranker} over {@code
   * llm} with the pipeline's retries.
   *
   * @throws dev.engram.ValidationException if {@code llm} is asked for and {@code llm} is empty, or
   *     a key is missing
   */
  public static dev.engram.spi.Reranker reranker(
      EngramSettings.Reranker reranker, Optional<ModelCaller> llm, Map<String, String> env) {
    Objects.requireNonNull(reranker, "reranker");
    Objects.requireNonNull(env, "env");
    if (reranker.provider() == EngramSettings.RerankerProvider.LLM) {
      ModelCaller caller =
          llm.orElseThrow(
              () ->
                  new dev.engram.ValidationException(
                      "reranker.provider",
                      "'llm' needs a language model: add an llm section to engram.yaml or set ENGRAM_LLM_PROVIDER"));
      return new LlmReranker(caller, reranker.candidates());
    }
    Optional<String> key =
        Secrets.apiKey(
            "reranker",
            reranker.provider().configName(),
            reranker.apiKeyEnv(),
            reranker.apiKeyFile(),
            env,
            reranker.baseUrl().isEmpty());
    ModelSettings s =
        endpoint(reranker.model(), reranker.baseUrl(), key, reranker.timeout()).build();
    return ScoringModelReranker.of(reranker.provider().api().orElseThrow(), s)
        .withCandidates(reranker.candidates());
  }

  /** The settings every configured model starts from: its name, endpoint, key and timeout. */
  private static ModelSettings.Builder endpoint(
      String model, Optional<String> baseUrl, Optional<String> key, Duration timeout) {
    return ModelSettings.builder(model)
        .baseUrl(baseUrl.orElse(null))
        .apiKey(key.orElse(null))
        .timeout(timeout);
  }

  /**
   * Whether a provider cannot work without a key: public OpenAI, Anthropic and Gemini need one;
   * Ollama does not.
   */
  static boolean needsKey(LlmProvider provider, Optional<String> baseUrl) {
    return provider == LlmProvider.OPENAI ? baseUrl.isEmpty() : provider != LlmProvider.OLLAMA;
  }

  static boolean needsKey(EmbedderProvider provider, Optional<String> baseUrl) {
    return provider == EmbedderProvider.OPENAI && baseUrl.isEmpty();
  }

  /**
   * OpenAI's chat completions, or any OpenAI-compatible server (Ollama's {@code /v1}, vLLM, LM
   * Studio, llama.cpp server, Groq, DeepSeek, OpenRouter) given by {@link ModelSettings#baseUrl()}.
   * With {@link StructuredOutput#SCHEMA} the schema is sent as {@code response_format: json_schema}
   * (not strict). The token limit goes out as {@code max_completion_tokens} to OpenAI itself (its
   * reasoning models reject {@code max_tokens}) and as {@code max_tokens} to every other server.
   */
  public static LanguageModel openAi(ModelSettings s) {
    OpenAiChatModel.OpenAiChatModelBuilder b = OpenAiChatModel.builder();
    wire(
        s,
        Optional.of(OPENAI_URL),
        b::httpClientBuilder,
        b::baseUrl,
        b::modelName,
        b::timeout,
        b::maxRetries);
    s.apiKey().ifPresent(b::apiKey);
    if (s.structuredOutput() == StructuredOutput.SCHEMA) {
      b.supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA).strictJsonSchema(false);
    }
    return builder(b.build(), "openai/" + s.model(), s, s.structuredOutput())
        .maxCompletionTokens(isOpenAiItself(s.baseUrl().orElse(OPENAI_URL)))
        .build();
  }

  /** Whether {@code baseUrl} is OpenAI's own API, which takes {@code max_completion_tokens}. */
  static boolean isOpenAiItself(String baseUrl) {
    try {
      return "api.openai.com".equalsIgnoreCase(URI.create(baseUrl.trim()).getHost());
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Anthropic's Messages API; the key is sent as {@code x-api-key}. With {@link
   * StructuredOutput#SCHEMA} the schema is sent as {@code output_config.format} (structured
   * outputs, Claude 4.5 models and later; use {@link StructuredOutput#NONE} for older ones).
   * Anthropic has no schemaless JSON mode, so {@link StructuredOutput#JSON_MODE} sends no format
   * and relies on the prompt.
   */
  public static LanguageModel anthropic(ModelSettings s) {
    AnthropicChatModel.AnthropicChatModelBuilder b =
        AnthropicChatModel.builder().apiKey(requiredKey(s, "anthropic"));
    wire(
        s,
        Optional.empty(),
        b::httpClientBuilder,
        b::baseUrl,
        b::modelName,
        b::timeout,
        b::maxRetries);
    if (s.structuredOutput() == StructuredOutput.SCHEMA) {
      b.supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
    }
    StructuredOutput output =
        s.structuredOutput() == StructuredOutput.JSON_MODE
            ? StructuredOutput.NONE
            : s.structuredOutput();
    return wrap(b.build(), "anthropic/" + s.model(), s, output);
  }

  /**
   * Ollama's native {@code /api/chat}; a key, if given, is sent as a bearer token (for servers
   * behind a proxy).
   */
  public static LanguageModel ollama(ModelSettings s) {
    OllamaChatModel.OllamaChatModelBuilder b = OllamaChatModel.builder();
    wire(
        s,
        Optional.of(OLLAMA_URL),
        b::httpClientBuilder,
        b::baseUrl,
        b::modelName,
        b::timeout,
        b::maxRetries);
    bearer(s).ifPresent(b::customHeaders);
    if (s.structuredOutput() == StructuredOutput.SCHEMA) {
      b.supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
    }
    return wrap(b.build(), "ollama/" + s.model(), s);
  }

  /** Google's Gemini API; the key is sent as {@code x-goog-api-key}. */
  public static LanguageModel gemini(ModelSettings s) {
    GoogleAiGeminiChatModel.GoogleAiGeminiChatModelBuilder b =
        GoogleAiGeminiChatModel.builder().apiKey(requiredKey(s, "gemini"));
    wire(
        s,
        Optional.empty(),
        b::httpClientBuilder,
        b::baseUrl,
        b::modelName,
        b::timeout,
        b::maxRetries);
    if (s.structuredOutput() == StructuredOutput.SCHEMA) {
      b.supportedCapabilities(Capability.RESPONSE_FORMAT_JSON_SCHEMA);
    }
    return wrap(b.build(), "gemini/" + s.model(), s);
  }

  /**
   * OpenAI's (or a compatible server's) {@code /embeddings}; {@link ModelSettings#dimensions()}
   * shortens vectors.
   */
  public static Embedder openAiEmbedder(ModelSettings s) {
    OpenAiEmbeddingModel.OpenAiEmbeddingModelBuilder b = OpenAiEmbeddingModel.builder();
    wire(
        s,
        Optional.of(OPENAI_URL),
        b::httpClientBuilder,
        b::baseUrl,
        b::modelName,
        b::timeout,
        b::maxRetries);
    s.apiKey().ifPresent(b::apiKey);
    s.dimensions().ifPresent(b::dimensions);
    String id =
        "openai/" + s.model() + (s.dimensions().isPresent() ? "@" + s.dimensions().getAsInt() : "");
    return LangChain4jEmbedder.of(redacting(b.build(), id, s), id, s.queryPrefix());
  }

  /** Ollama's native {@code /api/embed}. */
  public static Embedder ollamaEmbedder(ModelSettings s) {
    OllamaEmbeddingModel.OllamaEmbeddingModelBuilder b = OllamaEmbeddingModel.builder();
    wire(
        s,
        Optional.of(OLLAMA_URL),
        b::httpClientBuilder,
        b::baseUrl,
        b::modelName,
        b::timeout,
        b::maxRetries);
    bearer(s).ifPresent(b::customHeaders);
    String id = "ollama/" + s.model();
    return LangChain4jEmbedder.of(redacting(b.build(), id, s), id, s.queryPrefix());
  }

  private static EmbeddingModel redacting(EmbeddingModel model, String id, ModelSettings s) {
    return new RedactingEmbeddingModel(model, id, s.apiKey().map(List::of).orElse(List.of()));
  }

  private static LanguageModel wrap(ChatModel model, String id, ModelSettings s) {
    return builder(model, id, s, s.structuredOutput()).build();
  }

  private static LanguageModel wrap(
      ChatModel model, String id, ModelSettings s, StructuredOutput output) {
    return builder(model, id, s, output).build();
  }

  private static ChatModelLanguageModel.Builder builder(
      ChatModel model, String id, ModelSettings s, StructuredOutput output) {
    ChatModelLanguageModel.Builder b =
        ChatModelLanguageModel.builder(model, id)
            .structuredOutput(output)
            .redact(s.apiKey().orElse(null));
    s.temperature().ifPresent(b::temperature);
    s.maxOutputTokens().ifPresent(b::maxOutputTokens);
    return b;
  }

  /**
   * The one wiring of every LangChain4j model builder (their types share no interface, so it takes
   * the builder's setters): the JDK HTTP client, the endpoint (the configured one, else {@code
   * defaultUrl}; with no default the provider's own, over HTTPS), the model name, the timeout and
   * no retries of its own (the pipeline retries).
   */
  private static void wire(
      ModelSettings s,
      Optional<String> defaultUrl,
      Consumer<HttpClientBuilder> httpClient,
      Consumer<String> baseUrl,
      Consumer<String> modelName,
      Consumer<Duration> timeout,
      Consumer<Integer> maxRetries) {
    httpClient.accept(http(s, defaultUrl.orElse("https://")));
    s.baseUrl().or(() -> defaultUrl).ifPresent(baseUrl);
    modelName.accept(s.model());
    timeout.accept(s.timeout());
    maxRetries.accept(0);
  }

  /** The key of a provider that cannot work without one. */
  private static String requiredKey(ModelSettings s, String provider) {
    return s.apiKey()
        .orElseThrow(() -> new IllegalArgumentException(provider + " needs an API key"));
  }

  /** The key as a bearer-token header, for Ollama servers behind a proxy; empty with no key. */
  private static Optional<Map<String, String>> bearer(ModelSettings s) {
    return s.apiKey().map(k -> Map.of("Authorization", "Bearer " + k));
  }

  private static HttpClientBuilder http(ModelSettings s, String defaultUrl) {
    HttpClient.Builder jdk = HttpClient.newBuilder();
    if (s.baseUrl().orElse(defaultUrl).startsWith("http://")) {
      jdk.version(HttpClient.Version.HTTP_1_1);
    }
    return JdkHttpClient.builder()
        .httpClientBuilder(jdk)
        .connectTimeout(s.timeout())
        .readTimeout(s.timeout());
  }
}

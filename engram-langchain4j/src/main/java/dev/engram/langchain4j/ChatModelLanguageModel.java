package dev.engram.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.LanguageModelException;
import dev.engram.spi.LanguageModel;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.DefaultChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import dev.langchain4j.model.output.TokenUsage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A {@link LanguageModel} over a LangChain4j {@link ChatModel} (OpenAI and compatible servers,
 * Anthropic, Ollama, Gemini...). Each call sends one system and one user message; a prompt with a
 * JSON schema gets a response format as {@link StructuredOutput} says. Failures come out as {@link
 * LanguageModelException} with a kind, and never contain the secrets given to the builder.
 *
 * <p>Retries are the caller's business: build the wrapped model with {@code maxRetries(0)} (as
 * {@link Providers} does), or failures are retried twice, once here and once in the pipeline.
 * Thread-safe if the wrapped model is; {@link #complete} blocks on the network.
 */
public final class ChatModelLanguageModel implements LanguageModel {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ChatModel model;
  private final String modelId;
  private final StructuredOutput structuredOutput;
  private final Double temperature;
  private final Integer maxOutputTokens;
  private final List<String> secrets;
  private final boolean maxCompletionTokens;

  private ChatModelLanguageModel(Builder b) {
    this.model = b.model;
    this.modelId = b.modelId;
    this.structuredOutput = b.structuredOutput;
    this.temperature = b.temperature;
    this.maxOutputTokens = b.maxOutputTokens;
    this.secrets = List.copyOf(b.secrets);
    this.maxCompletionTokens = b.maxCompletionTokens;
  }

  /**
   * Wraps a model with the defaults: schema output where supported, the prompt's temperature and
   * token limit.
   */
  public static ChatModelLanguageModel of(ChatModel model, String modelId) {
    return builder(model, modelId).build();
  }

  /**
   * A builder.
   *
   * @param model the LangChain4j model, built with no retries
   * @param modelId provider and model for messages and metrics, for example {@code
   *     openai/gpt-4o-mini}
   */
  public static Builder builder(ChatModel model, String modelId) {
    return new Builder(model, modelId);
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public Completion complete(Prompt prompt) {
    Objects.requireNonNull(prompt, "prompt");
    ChatRequest request = request(prompt);
    long start = System.nanoTime();
    ChatResponse response;
    try {
      response = model.chat(request);
    } catch (LanguageModelException e) {
      throw e;
    } catch (RuntimeException e) {
      throw ModelErrors.map(e, modelId, secrets);
    }
    Duration latency = Duration.ofNanos(System.nanoTime() - start);
    AiMessage message = response == null ? null : response.aiMessage();
    String text = message == null ? null : message.text();
    if (text == null) {
      throw new LanguageModelException(
          LanguageModelException.Kind.INVALID_RESPONSE,
          modelId
              + ": the answer has no text (finish reason "
              + (response == null ? "none" : response.finishReason())
              + ")");
    }
    TokenUsage usage = response.tokenUsage();
    return new Completion(
        text,
        count(usage == null ? null : usage.inputTokenCount()),
        count(usage == null ? null : usage.outputTokenCount()),
        latency);
  }

  /** The request sent for {@code prompt}; visible for tests. */
  ChatRequest request(Prompt prompt) {
    List<ChatMessage> messages = new ArrayList<>(2);
    if (!prompt.system().isBlank()) {
      messages.add(SystemMessage.from(prompt.system()));
    }
    messages.add(UserMessage.from(prompt.user()));
    int limit = maxOutputTokens != null ? maxOutputTokens : prompt.maxOutputTokens();
    double t = temperature != null ? temperature : prompt.temperature();
    ChatRequestParameters parameters =
        maxCompletionTokens
            ? OpenAiChatRequestParameters.builder()
                .temperature(t)
                .maxCompletionTokens(limit)
                .responseFormat(responseFormat(prompt))
                .build()
            : DefaultChatRequestParameters.builder()
                .temperature(t)
                .maxOutputTokens(limit)
                .responseFormat(responseFormat(prompt))
                .build();
    return ChatRequest.builder().messages(messages).parameters(parameters).build();
  }

  private ResponseFormat responseFormat(Prompt prompt) {
    if (!prompt.wantsJson() || structuredOutput == StructuredOutput.NONE) {
      return null;
    }
    if (structuredOutput == StructuredOutput.SCHEMA
        && model.supportedCapabilities().contains(Capability.RESPONSE_FORMAT_JSON_SCHEMA)) {
      String schema;
      try {
        schema = JSON.writeValueAsString(prompt.jsonSchema());
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(
            "prompt.jsonSchema cannot be written as JSON: " + e.getOriginalMessage(), e);
      }
      return ResponseFormat.builder()
          .type(ResponseFormatType.JSON)
          .jsonSchema(
              JsonSchema.builder()
                  .name(prompt.schemaName())
                  .rootElement(JsonRawSchema.from(schema))
                  .build())
          .build();
    }
    return ResponseFormat.JSON;
  }

  private static int count(Integer tokens) {
    return tokens == null || tokens < 0 ? 0 : tokens;
  }

  @Override
  public String toString() {
    return "ChatModelLanguageModel[" + modelId + ", " + structuredOutput.configName() + "]";
  }

  /** Options of a {@link ChatModelLanguageModel}. */
  public static final class Builder {
    private final ChatModel model;
    private final String modelId;
    private StructuredOutput structuredOutput = StructuredOutput.SCHEMA;
    private Double temperature;
    private Integer maxOutputTokens;
    private final List<String> secrets = new ArrayList<>();
    private boolean maxCompletionTokens;

    private Builder(ChatModel model, String modelId) {
      this.model = Objects.requireNonNull(model, "model");
      this.modelId = Objects.requireNonNull(modelId, "modelId");
    }

    /** How JSON answers are requested; {@link StructuredOutput#SCHEMA} by default. */
    public Builder structuredOutput(StructuredOutput value) {
      this.structuredOutput = Objects.requireNonNull(value, "structuredOutput");
      return this;
    }

    /** A temperature that replaces every prompt's (some reasoning models accept only 1.0). */
    public Builder temperature(double value) {
      this.temperature = OptionChecks.temperature(value);
      return this;
    }

    /** A token limit that replaces every prompt's. */
    public Builder maxOutputTokens(int value) {
      this.maxOutputTokens = OptionChecks.positive("maxOutputTokens", value);
      return this;
    }

    /**
     * A string (an API key) that must never appear in an error message; blank values are ignored.
     */
    public Builder redact(String secret) {
      if (secret != null && !secret.isBlank()) {
        secrets.add(secret);
      }
      return this;
    }

    /**
     * Sends the token limit as OpenAI's {@code max_completion_tokens} instead of {@code
     * max_tokens}, which OpenAI's reasoning models reject; for OpenAI's own endpoint only (many
     * compatible servers know only {@code max_tokens}).
     */
    Builder maxCompletionTokens(boolean value) {
      this.maxCompletionTokens = value;
      return this;
    }

    public ChatModelLanguageModel build() {
      return new ChatModelLanguageModel(this);
    }
  }
}

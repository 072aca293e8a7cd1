package dev.engram.langchain4j;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * How to reach one hosted model: name, endpoint, key, timeout and a few request options. Immutable;
 * built with {@link #builder(String)}. {@link #toString()} never shows the API key. Used by the
 * {@link Providers} factories, and filled from {@code engram.yaml} by {@link
 * Providers#languageModel} and {@link Providers#embedder}.
 */
public final class ModelSettings {
  /** The timeout when none is given. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  private final String model;
  private final String baseUrl;
  private final String apiKey;
  private final Duration timeout;
  private final StructuredOutput structuredOutput;
  private final Double temperature;
  private final Integer maxOutputTokens;
  private final Integer dimensions;
  private final String queryPrefix;

  private ModelSettings(Builder b) {
    this.model = b.model;
    this.baseUrl = b.baseUrl;
    this.apiKey = b.apiKey;
    this.timeout = b.timeout;
    this.structuredOutput = b.structuredOutput;
    this.temperature = b.temperature;
    this.maxOutputTokens = b.maxOutputTokens;
    this.dimensions = b.dimensions;
    this.queryPrefix = b.queryPrefix;
  }

  /** A builder for {@code model}, for example {@code gpt-4o-mini} or {@code llama3.1:8b}. */
  public static Builder builder(String model) {
    return new Builder(model);
  }

  /** The provider's model name. */
  public String model() {
    return model;
  }

  /** The endpoint; empty for the provider's public one. */
  public Optional<String> baseUrl() {
    return Optional.ofNullable(baseUrl);
  }

  /** The API key; empty for servers that need none (local Ollama, vLLM...). */
  public Optional<String> apiKey() {
    return Optional.ofNullable(apiKey);
  }

  /** Connect and read timeout of one call. */
  public Duration timeout() {
    return timeout;
  }

  /** How JSON answers are requested. */
  public StructuredOutput structuredOutput() {
    return structuredOutput;
  }

  /** A temperature that replaces the pipeline's, if set. */
  public OptionalDouble temperature() {
    return temperature == null ? OptionalDouble.empty() : OptionalDouble.of(temperature);
  }

  /** A token limit that replaces the pipeline's, if set. */
  public OptionalInt maxOutputTokens() {
    return maxOutputTokens == null ? OptionalInt.empty() : OptionalInt.of(maxOutputTokens);
  }

  /** Embedders only: the vector size to ask for (OpenAI {@code text-embedding-3-*}), if set. */
  public OptionalInt dimensions() {
    return dimensions == null ? OptionalInt.empty() : OptionalInt.of(dimensions);
  }

  /**
   * Embedders only: text put before every query (some models expect an instruction); empty by
   * default.
   */
  public String queryPrefix() {
    return queryPrefix;
  }

  @Override
  public String toString() {
    return "ModelSettings[model="
        + model
        + ", baseUrl="
        + (baseUrl == null ? "(default)" : baseUrl)
        + ", apiKey="
        + (apiKey == null ? "(none)" : "***")
        + ", timeout="
        + timeout
        + ", structuredOutput="
        + structuredOutput.configName()
        + (temperature == null ? "" : ", temperature=" + temperature)
        + (maxOutputTokens == null ? "" : ", maxOutputTokens=" + maxOutputTokens)
        + (dimensions == null ? "" : ", dimensions=" + dimensions)
        + "]";
  }

  /** Builds {@link ModelSettings}; every option but the model is optional. */
  public static final class Builder {
    private final String model;
    private String baseUrl;
    private String apiKey;
    private Duration timeout = DEFAULT_TIMEOUT;
    private StructuredOutput structuredOutput = StructuredOutput.SCHEMA;
    private Double temperature;
    private Integer maxOutputTokens;
    private Integer dimensions;
    private String queryPrefix = "";

    private Builder(String model) {
      Objects.requireNonNull(model, "model");
      if (model.isBlank()) {
        throw new IllegalArgumentException("model must not be blank");
      }
      this.model = model.trim();
    }

    /**
     * The endpoint, for example {@code http://localhost:11434/v1}; null or blank for the provider's
     * default.
     */
    public Builder baseUrl(String value) {
      this.baseUrl = value == null || value.isBlank() ? null : value.trim();
      return this;
    }

    /** The API key; null or blank for none. */
    public Builder apiKey(String value) {
      this.apiKey = value == null || value.isBlank() ? null : value.trim();
      return this;
    }

    /** The timeout of one call (connect and read), positive. */
    public Builder timeout(Duration value) {
      Objects.requireNonNull(value, "timeout");
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, got " + value);
      }
      this.timeout = value;
      return this;
    }

    public Builder structuredOutput(StructuredOutput value) {
      this.structuredOutput = Objects.requireNonNull(value, "structuredOutput");
      return this;
    }

    public Builder temperature(double value) {
      this.temperature = OptionChecks.temperature(value);
      return this;
    }

    public Builder maxOutputTokens(int value) {
      this.maxOutputTokens = OptionChecks.positive("maxOutputTokens", value);
      return this;
    }

    public Builder dimensions(int value) {
      this.dimensions = OptionChecks.positive("dimensions", value);
      return this;
    }

    public Builder queryPrefix(String value) {
      this.queryPrefix = Objects.requireNonNull(value, "queryPrefix");
      return this;
    }

    public ModelSettings build() {
      return new ModelSettings(this);
    }
  }
}

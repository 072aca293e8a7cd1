package dev.engram.pipeline;

import java.util.Objects;

/**
 * Settings of the LLM pipeline. Build with {@link #builder()}; every setting has a documented
 * default.
 *
 * @param recentMessages m: messages of the scope's window shown to extraction (default 10)
 * @param similarMemories s: existing memories retrieved per fact for consolidation (default 10)
 * @param customInstructions extra rules for extraction (what to remember, what to ignore); "" for
 *     none
 * @param extractionPrompt replaces the built-in extraction instructions; "" to keep them
 * @param retry retries of model calls
 * @param maxOutputTokens the most tokens per model answer (default 2000)
 * @param temperature sampling temperature (default 0)
 */
public record PipelineOptions(
    int recentMessages,
    int similarMemories,
    String customInstructions,
    String extractionPrompt,
    RetryPolicy retry,
    int maxOutputTokens,
    double temperature) {
  public PipelineOptions {
    if (recentMessages < 0 || similarMemories < 1 || maxOutputTokens < 1) {
      throw new IllegalArgumentException(
          "recentMessages >= 0, similarMemories >= 1 and maxOutputTokens >= 1");
    }
    customInstructions = customInstructions == null ? "" : customInstructions.trim();
    extractionPrompt = extractionPrompt == null ? "" : extractionPrompt.trim();
    Objects.requireNonNull(retry, "retry");
  }

  public static PipelineOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builder for {@link PipelineOptions}. Not thread-safe. */
  public static final class Builder {
    private int recentMessages = 10;
    private int similarMemories = 10;
    private String customInstructions = "";
    private String extractionPrompt = "";
    private RetryPolicy retry = RetryPolicy.defaults();
    private int maxOutputTokens = 2000;
    private double temperature = 0.0;

    public Builder recentMessages(int m) {
      this.recentMessages = m;
      return this;
    }

    public Builder similarMemories(int s) {
      this.similarMemories = s;
      return this;
    }

    public Builder customInstructions(String text) {
      this.customInstructions = text;
      return this;
    }

    public Builder extractionPrompt(String text) {
      this.extractionPrompt = text;
      return this;
    }

    public Builder retry(RetryPolicy policy) {
      this.retry = policy;
      return this;
    }

    public Builder maxOutputTokens(int n) {
      this.maxOutputTokens = n;
      return this;
    }

    public Builder temperature(double t) {
      this.temperature = t;
      return this;
    }

    public PipelineOptions build() {
      return new PipelineOptions(
          recentMessages,
          similarMemories,
          customInstructions,
          extractionPrompt,
          retry,
          maxOutputTokens,
          temperature);
    }
  }
}

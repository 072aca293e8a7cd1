package dev.engram.spi;

import dev.engram.LanguageModelException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A chat model as the pipeline needs it: one system and one user message in, text out, with token
 * counts. Implementations are thread-safe and block on the network; they throw {@link
 * LanguageModelException} with a {@link LanguageModelException.Kind} so that callers can tell
 * retryable failures (rate limits, server errors, timeouts) from final ones. They never log API
 * keys.
 */
public interface LanguageModel {

  /** The provider and model, for logs and metrics (for example {@code openai/gpt-4o-mini}). */
  String modelId();

  /** Sends one prompt and returns the completion. */
  Completion complete(Prompt prompt);

  /**
   * One request.
   *
   * @param system the system message (instructions)
   * @param user the user message (the data)
   * @param schemaName a name for the JSON schema, or null for free text
   * @param jsonSchema the JSON Schema the answer must follow (as plain Java maps), or null for free
   *     text; providers that support structured output enforce it, others get JSON mode
   * @param maxOutputTokens the most tokens to generate
   * @param temperature sampling temperature
   */
  record Prompt(
      String system,
      String user,
      String schemaName,
      Map<String, Object> jsonSchema,
      int maxOutputTokens,
      double temperature) {
    public Prompt {
      Objects.requireNonNull(system, "system");
      Objects.requireNonNull(user, "user");
      if ((schemaName == null) != (jsonSchema == null)) {
        throw new IllegalArgumentException("schemaName and jsonSchema go together");
      }
      jsonSchema = jsonSchema == null ? null : Map.copyOf(jsonSchema);
      if (maxOutputTokens < 1) {
        throw new IllegalArgumentException(
            "maxOutputTokens must be positive, got " + maxOutputTokens);
      }
    }

    /** True if the answer must be JSON. */
    public boolean wantsJson() {
      return jsonSchema != null;
    }
  }

  /**
   * One answer.
   *
   * @param text the text the model produced
   * @param inputTokens prompt tokens as the provider counted them (0 if unknown)
   * @param outputTokens completion tokens (0 if unknown)
   * @param latency wall time of the call
   */
  record Completion(String text, int inputTokens, int outputTokens, Duration latency) {
    public Completion {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(latency, "latency");
    }
  }
}

package dev.engram.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.UsageMeter;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a {@link LanguageModel} for one pipeline step: retries retryable failures with backoff,
 * retries unusable answers a bounded number of times, records usage, and on final failure throws a
 * {@link LanguageModelException} whose message names the step. Thread-safe.
 */
public final class ModelCaller {
  private static final Logger LOG = LoggerFactory.getLogger(ModelCaller.class);

  /** Waits between attempts; replaceable in tests. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private final LanguageModel model;
  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final ModelMetrics metrics = new ModelMetrics();

  public ModelCaller(LanguageModel model, RetryPolicy policy, Sleeper sleeper) {
    this.model = Objects.requireNonNull(model, "model");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  public ModelCaller(LanguageModel model, RetryPolicy policy) {
    this(model, policy, d -> Thread.sleep(d.toMillis()));
  }

  public String modelId() {
    return model.modelId();
  }

  /**
   * Cumulative calls, failures, tokens and time per step, across every add that used this caller.
   */
  public ModelMetrics metrics() {
    return metrics;
  }

  /**
   * Calls the model and converts its JSON answer with {@code reader}; {@code reader} throws {@link
   * LanguageModelException} of kind INVALID_RESPONSE for answers of the wrong shape.
   */
  public <T> T callJson(
      String step, LanguageModel.Prompt prompt, UsageMeter usage, Function<JsonNode, T> reader) {
    return call(step, prompt, usage, text -> reader.apply(JsonAnswers.firstObject(text, step)));
  }

  /**
   * Calls the model for free text; think blocks are removed and a blank answer counts as unusable.
   */
  public String callText(String step, LanguageModel.Prompt prompt, UsageMeter usage) {
    return call(
        step,
        prompt,
        usage,
        text -> {
          String t = text.replaceAll("(?is)<think>.*?(</think>|$)", "").trim();
          if (t.isEmpty()) {
            throw new LanguageModelException(
                LanguageModelException.Kind.INVALID_RESPONSE, step + ": blank answer");
          }
          return t;
        });
  }

  private <T> T call(
      String step, LanguageModel.Prompt prompt, UsageMeter usage, Function<String, T> reader) {
    int attempt = 0;
    int invalid = 0;
    while (true) {
      attempt++;
      try {
        LanguageModel.Completion c;
        try {
          c = model.complete(prompt);
        } catch (RuntimeException e) {
          metrics.failed(step);
          throw e;
        }
        usage.record(c.inputTokens(), c.outputTokens(), c.latency());
        metrics.answered(step, c.inputTokens(), c.outputTokens(), c.latency());
        return reader.apply(c.text());
      } catch (LanguageModelException e) {
        boolean unusable = e.kind() == LanguageModelException.Kind.INVALID_RESPONSE;
        if (unusable) {
          invalid++;
        }
        boolean again =
            unusable
                ? invalid < policy.invalidAnswerAttempts()
                : e.retryable() && attempt < policy.maxAttempts();
        if (!again) {
          throw new LanguageModelException(
              e.kind(),
              step
                  + " failed after "
                  + attempt
                  + " attempt"
                  + (attempt == 1 ? "" : "s")
                  + " with "
                  + model.modelId()
                  + ": "
                  + e.getMessage(),
              e);
        }
        LOG.warn(
            "{}: attempt {} with {} failed ({}); retrying",
            step,
            attempt,
            model.modelId(),
            e.kind());
        pause(attempt + 1);
      } catch (RuntimeException e) {
        throw new LanguageModelException(
            LanguageModelException.Kind.SERVER_ERROR,
            step + " failed with " + model.modelId() + ": " + e,
            e);
      }
    }
  }

  private void pause(int nextAttempt) {
    long cap = policy.backoffCap(nextAttempt).toMillis();
    if (cap <= 0) {
      return;
    }
    try {
      sleeper.sleep(Duration.ofMillis(ThreadLocalRandom.current().nextLong(cap / 2, cap + 1)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LanguageModelException(
          LanguageModelException.Kind.TIMEOUT, "interrupted while waiting to retry", e);
    }
  }
}

package dev.engram.bench.answer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Usage;
import dev.engram.pipeline.JsonAnswers;
import dev.engram.pipeline.ModelCaller;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.UsageMeter;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * A language model asked for JSON objects through a {@link ResponseCache} and a {@link ModelCaller}
 * (retries with backoff), as {@link Answerer} and {@link Judge} ask theirs: an answer is read, and
 * so checked, before it is cached, so only usable answers are stored; a cached one is read again
 * the same way. Counts the calls it makes (cache hits cost nothing). Thread-safe if the model and
 * the cache are.
 */
final class CachedJsonModel {
  private final LanguageModel model;
  private final ModelCaller caller;
  private final ResponseCache cache;
  private final UsageMeter usage = new UsageMeter();

  private CachedJsonModel(LanguageModel model, ModelCaller caller, ResponseCache cache) {
    this.model = model;
    this.caller = caller;
    this.cache = cache;
  }

  /** {@code model}, caching in {@code cache}, retrying as {@code retry} says. */
  static CachedJsonModel create(LanguageModel model, ResponseCache cache, RetryPolicy retry) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(cache, "cache");
    Objects.requireNonNull(retry, "retry");
    return new CachedJsonModel(model, new ModelCaller(model, retry), cache);
  }

  /** The same, with an injected {@link ModelCaller.Sleeper} (tests use one that does not sleep). */
  static CachedJsonModel create(
      LanguageModel model, ResponseCache cache, RetryPolicy retry, ModelCaller.Sleeper sleeper) {
    return new CachedJsonModel(model, new ModelCaller(model, retry, sleeper), cache);
  }

  /**
   * The answer to {@code prompt} as {@code reader} reads it from the model's JSON object and the
   * step's name; run {@code run} of the same prompt is cached under its own key.
   *
   * @throws dev.engram.LanguageModelException if the model fails, or keeps giving answers {@code
   *     reader} refuses
   */
  @SuppressWarnings(
      "ReturnValueIgnored") // the first read only validates: it throws on an answer it refuses
  <T> T ask(
      String step, LanguageModel.Prompt prompt, int run, BiFunction<JsonNode, String, T> reader) {
    String stored =
        cache.getOrCompute(
            model.modelId(),
            prompt,
            run,
            () ->
                caller.callJson(
                    step,
                    prompt,
                    usage,
                    node -> {
                      reader.apply(node, step);
                      return node.toString();
                    }));
    return reader.apply(JsonAnswers.firstObject(stored, step), step);
  }

  /** Model calls made so far (cache hits are not counted). */
  Usage usage() {
    return usage.snapshot();
  }

  /** The model's id. */
  String modelId() {
    return model.modelId();
  }
}

package dev.engram.cli;

import dev.engram.ValidationException;
import dev.engram.bench.answer.AnswerObserver;
import dev.engram.bench.answer.Answerer;
import dev.engram.bench.answer.Judge;
import dev.engram.bench.answer.ResponseCache;
import dev.engram.bench.locomo.QuestionObserver;
import dev.engram.langchain4j.EngramSettings;
import dev.engram.langchain4j.Providers;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.LanguageModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The answer and judge models of {@code bench locomo}, from {@code provider:model} specs, with
 * their response cache; without an answer model, an observer that measures nothing. Close it after
 * the run.
 */
final class AnswerMetricsSetup implements AutoCloseable {
  private final ResponseCache cache;
  private final AnswerObserver observer;

  private AnswerMetricsSetup(ResponseCache cache, AnswerObserver observer) {
    this.cache = cache;
    this.observer = observer;
  }

  static AnswerMetricsSetup open(
      String answerSpec,
      String judgeSpec,
      int judgeRuns,
      int threads,
      Path cacheFile,
      Map<String, String> env) {
    if (answerSpec == null) {
      if (judgeSpec != null) {
        throw new ValidationException("judge-model", "needs --answer-model too");
      }
      return new AnswerMetricsSetup(null, null);
    }
    if (judgeRuns < 1 || threads < 1) {
      throw new ValidationException(
          "judge-runs", "--judge-runs and --answer-threads must be at least 1");
    }
    LanguageModel answerModel = model("answer-model", answerSpec, env);
    LanguageModel judgeModel =
        judgeSpec == null ? answerModel : model("judge-model", judgeSpec, env);
    ResponseCache cache = ResponseCache.open(cacheFile);
    return new AnswerMetricsSetup(
        cache,
        AnswerObserver.create(
            Answerer.create(answerModel, cache, RetryPolicy.defaults()),
            Judge.create(judgeModel, cache, RetryPolicy.defaults()),
            threads,
            judgeRuns));
  }

  QuestionObserver observer() {
    return observer == null ? QuestionObserver.none() : observer;
  }

  /**
   * A model from {@code provider:model}, e.g. {@code openai:gpt-4o-mini}; the provider's key comes
   * from env.
   */
  static LanguageModel model(String field, String spec, Map<String, String> env) {
    int colon = spec.indexOf(':');
    String provider = colon < 0 ? spec : spec.substring(0, colon);
    List<String> names = new ArrayList<>();
    for (EngramSettings.LlmProvider p : EngramSettings.LlmProvider.values()) {
      names.add(p.configName());
      if (p.configName().equals(provider.trim().toLowerCase(Locale.ROOT))) {
        EngramSettings.Llm llm = EngramSettings.Llm.of(p);
        if (colon >= 0 && !spec.substring(colon + 1).isBlank()) {
          llm = llm.toBuilder().model(spec.substring(colon + 1).trim()).build();
        }
        return Providers.languageModel(llm, env);
      }
    }
    throw new ValidationException(
        field,
        "unknown provider '"
            + provider
            + "' in '"
            + spec
            + "' (expected one of "
            + String.join(", ", names)
            + ", as provider:model)");
  }

  @Override
  public void close() {
    if (observer != null) {
      observer.close();
    }
    if (cache != null) {
      cache.close();
    }
  }
}

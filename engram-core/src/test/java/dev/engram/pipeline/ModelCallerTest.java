package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.LanguageModelException;
import dev.engram.LanguageModelException.Kind;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.UsageMeter;
import dev.engram.testing.ScriptedLanguageModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelCallerTest {
  private static final LanguageModel.Prompt PROMPT =
      new LanguageModel.Prompt("sys", "user", "facts", Schemas.FACTS, 100, 0);
  private final List<Duration> sleeps = new ArrayList<>();

  private ModelCaller caller(ScriptedLanguageModel model) {
    return new ModelCaller(
        model, new RetryPolicy(3, Duration.ofMillis(100), Duration.ofMillis(150), 2), sleeps::add);
  }

  @Test
  void retriesRateLimitsAndServerErrorsWithBoundedBackoff() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenFail(Kind.RATE_LIMITED)
            .thenFail(Kind.SERVER_ERROR)
            .thenAnswer("{\"facts\": [\"x\"]}");
    UsageMeter usage = new UsageMeter();
    ModelCaller caller = caller(model);
    List<String> facts =
        caller.callJson("fact extraction", PROMPT, usage, ConsolidatingInference::readFacts);
    assertThat(facts).containsExactly("x");
    ModelMetrics.Step step = caller.metrics().snapshot().get("fact extraction");
    assertThat(step.calls()).isEqualTo(3);
    assertThat(step.failures()).isEqualTo(2);
    assertThat(step.completionTokens()).isEqualTo(("{\"facts\": [\"x\"]}".length() + 3) / 4);
    assertThat(model.calls()).isEqualTo(3);
    // Backoff caps: 100 ms before attempt 2, min(200, 150) before attempt 3; full jitter from half
    // the cap.
    assertThat(sleeps).hasSize(2);
    assertThat(sleeps.get(0).toMillis()).isBetween(50L, 100L);
    assertThat(sleeps.get(1).toMillis()).isBetween(75L, 150L);
    assertThat(usage.snapshot().llmCalls()).isEqualTo(1);
  }

  @Test
  void givesUpAfterMaxAttemptsNamingTheStep() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenFail(Kind.TIMEOUT)
            .thenFail(Kind.TIMEOUT)
            .thenFail(Kind.TIMEOUT)
            .thenAnswer("{\"facts\": []}");
    assertThatThrownBy(
            () ->
                caller(model)
                    .callJson(
                        "fact extraction",
                        PROMPT,
                        new UsageMeter(),
                        ConsolidatingInference::readFacts))
        .isInstanceOfSatisfying(
            LanguageModelException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT))
        .hasMessageStartingWith("fact extraction failed after 3 attempts with scripted");
    assertThat(model.calls()).isEqualTo(3);
  }

  @Test
  void neverRetriesAuthenticationErrors() {
    ScriptedLanguageModel model = new ScriptedLanguageModel().thenFail(Kind.AUTHENTICATION);
    assertThatThrownBy(
            () ->
                caller(model)
                    .callJson(
                        "memory consolidation",
                        PROMPT,
                        new UsageMeter(),
                        ConsolidatingInference::readFacts))
        .hasMessageStartingWith("memory consolidation failed after 1 attempt with scripted");
    assertThat(sleeps).isEmpty();
  }

  @Test
  void retriesAnUnusableAnswerOnceThenFails() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("garbage")
            .thenAnswer("{\"wrong\": 1}")
            .thenAnswer("{\"facts\": []}");
    assertThatThrownBy(
            () ->
                caller(model)
                    .callJson(
                        "fact extraction",
                        PROMPT,
                        new UsageMeter(),
                        ConsolidatingInference::readFacts))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> assertThat(e.kind()).isEqualTo(Kind.INVALID_RESPONSE))
        .hasMessageContaining("expected {\"facts\": [...]}");
    assertThat(model.calls()).isEqualTo(2);
  }
}

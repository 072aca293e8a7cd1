package dev.engram.bench.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.LanguageModelException;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.testing.ScriptedLanguageModel;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The LLM judge against a scripted (fake) model: prompt, tolerant parsing, runs and caching. */
class JudgeTest {

  private static Judge judge(ScriptedLanguageModel model, ResponseCache cache) {
    return new Judge(CachedJsonModel.create(model, cache, RetryPolicy.defaults(), d -> {}));
  }

  static Stream<Arguments> answers() {
    return Stream.of(
        Arguments.of("{\"reasoning\": \"same date\", \"label\": \"CORRECT\"}", true, "same date"),
        Arguments.of("{\"label\": \"WRONG\"}", false, ""),
        Arguments.of(
            "The generated answer names another city.\n{\"reasoning\": \"different city\", \"label\":"
                + " \"WRONG\"}\nThat is my verdict.",
            false,
            "different city"),
        Arguments.of(
            "```json\n{\"reasoning\": \"same topic\", \"label\": \"correct\"}\n```",
            true,
            "same topic"),
        Arguments.of(
            "<think>maybe {\"label\": \"WRONG\"}</think>{\"reasoning\": \"ok\", \"label\": \" Correct \"}",
            true,
            "ok"));
  }

  @ParameterizedTest
  @MethodSource("answers")
  void scriptedJudgeAnswersAreParsed(String text, boolean correct, String reasoning) {
    ScriptedLanguageModel model = new ScriptedLanguageModel().thenAnswer(text);
    assertThat(judge(model, ResponseCache.inMemory()).judge("Where?", "Paris", "In Paris", 0))
        .isEqualTo(new Judge.Verdict(correct, reasoning));
  }

  @Test
  void scriptedJudgeSeesQuestionGoldAndGeneratedAnswer() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel().thenAnswer("{\"label\": \"CORRECT\"}");
    judge(model, ResponseCache.inMemory())
        .judge(" When did she move? ", "7 May 2023", "the 7th of May 2023", 0);
    assertThat(model.prompts().get(0).user())
        .isEqualTo(
            "Question: When did she move?\nGold answer: 7 May 2023\nGenerated answer: the 7th of May 2023");
    assertThat(model.prompts().get(0).system()).isEqualTo(Judge.SYSTEM).contains("generous");
    assertThat(model.prompts().get(0).temperature()).isZero();
  }

  @Test
  void scriptedLabelOtherThanCorrectOrWrongIsRetriedThenFailsNamingTheQuestion() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("{\"label\": \"MAYBE\"}")
            .thenAnswer("CORRECT, no JSON here");
    assertThatThrownBy(
            () ->
                judge(model, ResponseCache.inMemory())
                    .judge("Where did she go?", "Paris", "Rome", 3))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.INVALID_RESPONSE))
        .hasMessageContaining("judge run 3 for question 'Where did she go?'");
    assertThat(model.calls()).isEqualTo(2);
  }

  @Test
  void scriptedRunsAreCachedSeparatelyAndRerunsCallNothing() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("{\"label\": \"CORRECT\"}")
            .thenAnswer("{\"label\": \"WRONG\"}");
    ResponseCache cache = ResponseCache.inMemory();
    Judge judge = judge(model, cache);
    assertThat(judge.judge("Q?", "gold", "answer", 0).correct()).isTrue();
    assertThat(judge.judge("Q?", "gold", "answer", 1).correct()).isFalse();
    assertThat(model.calls()).isEqualTo(2);

    assertThat(judge.judge("Q?", "gold", "answer", 0).correct()).isTrue();
    assertThat(judge.judge("Q?", "gold", "answer", 1).correct()).isFalse();
    assertThat(model.calls()).isEqualTo(2);
    assertThat(judge.usage().llmCalls()).isEqualTo(2);
  }

  @Test
  void negativeRunIsRejected() {
    Judge judge = judge(new ScriptedLanguageModel(), ResponseCache.inMemory());
    assertThatThrownBy(() -> judge.judge("Q?", "g", "a", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("run must be at least 0, got -1");
  }
}

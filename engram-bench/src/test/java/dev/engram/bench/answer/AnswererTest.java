package dev.engram.bench.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.LanguageModelException;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.LanguageModel;
import dev.engram.testing.ScriptedLanguageModel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answer generation against a scripted (fake) model. */
class AnswererTest {
  private static final RetryPolicy RETRY =
      new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(10), 2);
  private static final List<RetrievedMemory> MEMORIES =
      List.of(
          new RetrievedMemory(
              "went to the LGBTQ support group yesterday",
              "Caroline",
              Instant.parse("2023-05-08T13:56:00Z")),
          RetrievedMemory.of("Melanie: painted a sunrise", null));

  private static Answerer answerer(ScriptedLanguageModel model, ResponseCache cache) {
    return new Answerer(CachedJsonModel.create(model, cache, RETRY, d -> {}));
  }

  @Test
  void scriptedModelSeesMemoriesWithDatesAndSpeakersAndTheQuestion() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"yesterday of 8 May 2023\", \"answer\": \"7 May 2023\"}");
    Answerer.Answer answer =
        answerer(model, ResponseCache.inMemory())
            .answer("When did Caroline go to the LGBTQ support group?", MEMORIES);

    assertThat(answer).isEqualTo(new Answerer.Answer("7 May 2023", "yesterday of 8 May 2023"));
    LanguageModel.Prompt prompt = model.prompts().get(0);
    assertThat(prompt.system()).isEqualTo(Answerer.SYSTEM).contains("Relative times");
    assertThat(prompt.user())
        .isEqualTo(
            """
        Memories (most relevant first):
        - [8 May 2023 (Monday), 13:56] Caroline: went to the LGBTQ support group yesterday
        - Melanie: painted a sunrise

        Question: When did Caroline go to the LGBTQ support group?""");
    assertThat(prompt.temperature()).isZero();
    assertThat(prompt.wantsJson()).isTrue();
  }

  @Test
  void scriptedModelSeesGraphRelationsAfterTheMemoriesOnlyWhenThereAreAny() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"the relation is dated\", \"answer\": \"8 May 2023\"}");
    Answerer answerer = answerer(model, ResponseCache.inMemory());
    assertThat(
            answerer
                .answer(
                    "When did Caroline go to the support group?",
                    MEMORIES,
                    List.of(
                        "Caroline went to the LGBTQ support group. [valid from 2023-05-08]",
                        "Caroline knows\nMelanie"))
                .text())
        .isEqualTo("8 May 2023");
    assertThat(model.prompts().get(0).user())
        .isEqualTo(
            """
        Memories (most relevant first):
        - [8 May 2023 (Monday), 13:56] Caroline: went to the LGBTQ support group yesterday
        - Melanie: painted a sunrise

        Relations from the memory graph (most relevant first; the brackets say when each held):
        - Caroline went to the LGBTQ support group. [valid from 2023-05-08]
        - Caroline knows Melanie

        Question: When did Caroline go to the support group?""");
    // Without relations the prompt is the memories-only one (so cached answers of runs without the
    // graph hold).
    assertThat(Answerer.prompt("Q?", MEMORIES, List.of()))
        .isEqualTo(Answerer.prompt("Q?", MEMORIES));
  }

  @Test
  void scriptedChattyFencedAnswerIsRead() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer(
                "Sure! Here it is:\n```json\n{\"reasoning\": \"r\", \"answer\": \" Paris \"}\n```\nHope it helps.");
    assertThat(answerer(model, ResponseCache.inMemory()).answer("Where?", List.of()).text())
        .isEqualTo("Paris");
    assertThat(model.prompts().get(0).user())
        .startsWith("Memories (most relevant first):\n(none)\n");
  }

  @Test
  void scriptedCacheHitAvoidsTheCallAndReturnsIdenticalText() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"r\", \"answer\": \"7 May 2023\"}");
    ResponseCache cache = ResponseCache.inMemory();
    Answerer answerer = answerer(model, cache);
    Answerer.Answer first = answerer.answer("When?", MEMORIES);
    Answerer.Answer second = answerer.answer("When?", MEMORIES);

    assertThat(second).isEqualTo(first);
    assertThat(model.calls()).isEqualTo(1);
    assertThat(answerer.usage().llmCalls()).isEqualTo(1);
    assertThat(cache.hits()).isEqualTo(1);
  }

  @Test
  void scriptedUnusableAnswerIsRetriedThenAccepted() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"no answer key\"}")
            .thenFail(LanguageModelException.Kind.RATE_LIMITED)
            .thenAnswer("{\"reasoning\": \"r\", \"answer\": 2022}");
    assertThat(answerer(model, ResponseCache.inMemory()).answer("Which year?", MEMORIES).text())
        .isEqualTo("2022");
    assertThat(model.calls()).isEqualTo(3);
  }

  @Test
  void scriptedFailureIsTypedAndNamesTheQuestion() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel().thenFail(LanguageModelException.Kind.AUTHENTICATION);
    ResponseCache cache = ResponseCache.inMemory();
    assertThatThrownBy(() -> answerer(model, cache).answer("What did Melanie paint?", MEMORIES))
        .isInstanceOfSatisfying(
            LanguageModelException.class,
            e -> assertThat(e.kind()).isEqualTo(LanguageModelException.Kind.AUTHENTICATION))
        .hasMessageContaining("'What did Melanie paint?'")
        .hasMessageContaining("answer generation");
    assertThat(cache.size()).isZero();
  }
}

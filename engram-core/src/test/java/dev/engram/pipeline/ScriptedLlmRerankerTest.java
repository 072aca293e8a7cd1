package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Hashes;
import dev.engram.LanguageModelException.Kind;
import dev.engram.MemoryItem;
import dev.engram.RerankerException;
import dev.engram.testing.ScriptedLanguageModel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The LLM reranker's prompt and its reading of model answers, with a scripted model (no LLM runs
 * here).
 */
class ScriptedLlmRerankerTest {
  private static final Instant T = Instant.parse("2024-05-01T10:00:00Z");

  private static MemoryItem item(String id, String text, Instant event) {
    return new MemoryItem(
        id,
        text,
        Hashes.md5(text),
        Map.of(),
        "alice",
        null,
        null,
        null,
        null,
        T,
        T,
        event,
        List.of(),
        null);
  }

  private static final List<MemoryItem> ITEMS =
      List.of(
          item("a", "Alice plays the cello", null),
          item("b", "Alice moved to Lisbon", Instant.parse("2023-05-08T13:56:00Z")),
          item("c", "Bob likes tea", null));

  private final ScriptedLanguageModel model = new ScriptedLanguageModel();
  private final LlmReranker reranker =
      new LlmReranker(
          new ModelCaller(model, new RetryPolicy(3, Duration.ZERO, Duration.ZERO, 2)), 20);

  @Test
  void promptListsTheQueryAndNumberedCandidatesWithEventDates() {
    model.thenAnswer(
        "{\"scores\": [{\"id\": 0, \"score\": 0.2}, {\"id\": 1, \"score\": 0.9},"
            + " {\"id\": 2, \"score\": 0.0}]}");

    assertThat(reranker.scores("Where does Alice live?", ITEMS)).containsExactly(0.2, 0.9, 0.0);

    var prompt = model.prompts().get(0);
    assertThat(prompt.user())
        .isEqualTo(
            "Query: Where does Alice live?\n\nMemories:\n"
                + "[0] Alice plays the cello\n[1] (2023-05-08) Alice moved to Lisbon\n[2] Bob likes tea\n");
    assertThat(prompt.system()).contains("\"scores\"");
    assertThat(prompt.wantsJson()).isTrue();
    assertThat(prompt.temperature()).isZero();
    assertThat(reranker.candidates()).isEqualTo(20);
  }

  @Test
  void readsFencedAnswersStringScoresAndLeftOutCandidatesAsZero() {
    model.thenAnswer(
        "Here you go:\n```json\n{\"scores\": [{\"id\": \"1\", \"score\": \"0.75\"},"
            + " {\"id\": 0, \"score\": 0.5}, {\"id\": 0, \"score\": 0.25}, {\"id\": 7, \"score\": 1}]}\n```");

    assertThat(reranker.scores("q", ITEMS)).containsExactly(0.5, 0.75, 0.0);
  }

  @Test
  void readsPlainArraysObjectsKeyedByIdAndOtherScales() {
    model
        .thenAnswer("{\"scores\": [0.1, 0.8, 0.3]}")
        .thenAnswer("{\"scores\": {\"0\": 3, \"2\": 10}}")
        .thenAnswer("{\"scores\": [{\"id\": 0, \"score\": 40}, {\"id\": 1, \"score\": 100}]}");

    assertThat(reranker.scores("q", ITEMS)).containsExactly(0.1, 0.8, 0.3);
    assertThat(reranker.scores("q", ITEMS)).containsExactly(0.3, 0.0, 1.0);
    assertThat(reranker.scores("q", ITEMS)).containsExactly(0.4, 1.0, 0.0);
  }

  @Test
  void anUnusableAnswerIsAskedAgainOnce() {
    model
        .thenAnswer("I think the second one.")
        .thenAnswer("{\"scores\": [{\"id\": 2, \"score\": 1.0}]}");

    assertThat(reranker.scores("q", ITEMS)).containsExactly(0.0, 0.0, 1.0);
    assertThat(model.calls()).isEqualTo(2);
  }

  @Test
  void twoUnusableAnswersFailWithATypedError() {
    model.thenAnswer("{\"scores\": []}").thenAnswer("{\"ranking\": [2, 1, 0]}");

    assertThatThrownBy(() -> reranker.scores("q", ITEMS))
        .isInstanceOf(RerankerException.class)
        .hasMessageContaining("LLM reranker failed")
        .hasMessageContaining("scores none of the 3 memories");
    assertThat(model.calls()).isEqualTo(2);
  }

  @Test
  void scoresFarOutOfRangeAreUnusable() {
    model.thenAnswer("{\"scores\": [5000, 1, 2]}").thenAnswer("{\"scores\": [5000, 1, 2]}");

    assertThatThrownBy(() -> reranker.scores("q", ITEMS))
        .isInstanceOf(RerankerException.class)
        .hasMessageContaining("must lie in [0, 1]");
  }

  @Test
  void aModelFailureBecomesARerankerException() {
    model.thenFail(Kind.AUTHENTICATION);

    assertThatThrownBy(() -> reranker.scores("q", ITEMS))
        .isInstanceOf(RerankerException.class)
        .hasCauseInstanceOf(dev.engram.LanguageModelException.class);
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void noCandidatesNeedNoCall() {
    assertThat(reranker.scores("q", List.of())).isEmpty();
    assertThat(model.calls()).isZero();
  }
}

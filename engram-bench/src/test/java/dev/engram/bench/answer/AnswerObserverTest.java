package dev.engram.bench.answer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.GraphRelation;
import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.SearchHit;
import dev.engram.SearchResult;
import dev.engram.bench.locomo.Locomo;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.testing.ScriptedLanguageModel;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bridge from the LoCoMo harness to answer metrics, with scripted models (fakes: no LLM here).
 */
class AnswerObserverTest {

  @Test
  void answersFromTheHitsAndReportsJPerRunF1AndBleu() throws Exception {
    ScriptedLanguageModel answers =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"the memory names the cat\", \"answer\": \"Pixel\"}");
    ScriptedLanguageModel judges =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"same\", \"label\": \"CORRECT\"}")
            .thenAnswer("{\"reasoning\": \"strict\", \"label\": \"WRONG\"}");
    Instant when = Instant.parse("2024-03-03T09:15:00Z");
    MemoryItem m =
        new MemoryItem(
            "m1",
            "I adopted a grey cat called Pixel.",
            Hashes.md5("x"),
            Map.of(),
            "mini-1",
            null,
            null,
            "Ada",
            null,
            when,
            when,
            when,
            List.of("D1:1"),
            null);
    Locomo.Conversation conv =
        new Locomo.Conversation("mini-1", "Ada", "Ben", List.of(), List.of(), List.of());
    Locomo.Question q =
        new Locomo.Question("What is the name of Ada's cat?", "Pixel", List.of("D1:1"), 4);
    try (AnswerObserver observer =
        AnswerObserver.create(
            Answerer.create(answers, ResponseCache.inMemory(), RetryPolicy.none()),
            Judge.create(judges, ResponseCache.inMemory(), RetryPolicy.none()),
            2,
            2)) {
      Map<String, Double> metrics =
          observer
              .onSearch(conv, q, List.of(new SearchHit(m, 0.9, null)))
              .toCompletableFuture()
              .get();
      assertThat(metrics)
          .containsEntry("j", 50.0)
          .containsEntry("j_run_0", 100.0)
          .containsEntry("j_run_1", 0.0)
          .containsEntry("f1", 100.0)
          .containsEntry("bleu1", 100.0);
    }
    // The answer prompt showed the memory with its speaker and date.
    assertThat(answers.prompts().get(0).user())
        .contains("Ada: I adopted a grey cat called Pixel.")
        .contains("3 March 2024");
    assertThat(judges.calls()).isEqualTo(2);
  }

  @Test
  void scriptedAnswerPromptShowsTheGraphRelationsOfTheSearch() throws Exception {
    ScriptedLanguageModel answers =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"the relation is dated\", \"answer\": \"March 2024\"}");
    ScriptedLanguageModel judges =
        new ScriptedLanguageModel()
            .thenAnswer("{\"reasoning\": \"same month\", \"label\": \"CORRECT\"}");
    Instant when = Instant.parse("2024-03-03T09:15:00Z");
    MemoryItem m =
        new MemoryItem(
            "m1",
            "I adopted a grey cat called Pixel.",
            Hashes.md5("x"),
            Map.of(),
            "mini-1",
            null,
            null,
            "Ada",
            null,
            when,
            when,
            when,
            List.of("D1:1"),
            null);
    GraphRelation r =
        new GraphRelation(
            "r1",
            "Ada",
            "related_to",
            "Pixel",
            "Ada adopted a grey cat named Pixel.",
            when,
            null,
            when,
            null,
            1.0,
            List.of("D1:1", "D1:2"),
            List.of("m1"));
    Locomo.Conversation conv =
        new Locomo.Conversation("mini-1", "Ada", "Ben", List.of(), List.of(), List.of());
    Locomo.Question q =
        new Locomo.Question("When did Ada adopt Pixel?", "March 2024", List.of("D1:1"), 2);
    try (AnswerObserver observer =
        AnswerObserver.create(
            Answerer.create(answers, ResponseCache.inMemory(), RetryPolicy.none()),
            Judge.create(judges, ResponseCache.inMemory(), RetryPolicy.none()),
            1,
            1)) {
      Map<String, Double> metrics =
          observer
              .onSearch(conv, q, new SearchResult(List.of(new SearchHit(m, 0.9, null)), List.of(r)))
              .toCompletableFuture()
              .get();
      assertThat(metrics).containsEntry("j", 100.0).containsEntry("f1", 100.0);
    }
    assertThat(answers.prompts().get(0).user())
        .contains("Ada: I adopted a grey cat called Pixel.")
        .contains("Relations from the memory graph")
        .contains("- Ada adopted a grey cat named Pixel. [valid from" + " 2024-03-03]");
  }
}

package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Procedural memory and the rolling summary, with scripted models (fakes: no LLM is reachable
 * here).
 */
class ProceduralAndSummaryScenarioTest {
  @TempDir Path dir;

  @Test
  void proceduralMemoryKeepsOneRecordPerAgentScopeWithItsHistory() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer("Goal: file the report. 1. Opened the form -> 'form loaded'.")
            .thenAnswer(
                "Goal: file the report. 1. Opened the form -> 'form loaded'. 2. Submitted -> 'ok 201'.");
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .build()) {
      ProceduralMemory procedural =
          new ProceduralMemory(memory, new ModelCaller(model, RetryPolicy.none()), 800);
      Scope agent = Scope.of("alice", "filer", null);
      ProceduralMemory.Result first =
          procedural.record(
              agent,
              List.of(
                  Message.assistant("open form"),
                  new Message(Role.TOOL, "form loaded", null, null, null)));
      assertThat(first.memory().metadata()).containsEntry("memory_type", "procedural_memory");
      assertThat(first.usage().llmCalls()).isEqualTo(1);
      ProceduralMemory.Result second =
          procedural.record(
              agent,
              List.of(
                  Message.assistant("submit"), new Message(Role.TOOL, "ok 201", null, null, null)));
      assertThat(second.memory().id()).isEqualTo(first.memory().id());
      assertThat(second.memory().text()).endsWith("2. Submitted -> 'ok 201'.");
      assertThat(memory.history(first.memory().id()))
          .extracting(HistoryEntry::event)
          .containsExactly(EventType.ADD, EventType.UPDATE);
      // The second call showed the model the previous record.
      assertThat(model.prompts().get(1).user())
          .contains("## Previous record\nGoal: file the report. 1. Opened");
      assertThatThrownBy(
              () -> procedural.record(Scope.user("alice"), List.of(Message.assistant("x"))))
          .isInstanceOf(ValidationException.class)
          .hasMessageContaining("agent_id");
    }
  }

  @Test
  void theRollingSummaryIsRefreshedAfterAnAddAndShownToTheNextExtraction() throws Exception {
    ScriptedLanguageModel pipelineModel =
        new ScriptedLanguageModel().thenAnswer("{\"facts\": []}").thenAnswer("{\"facts\": []}");
    ScriptedLanguageModel summaryModel =
        new ScriptedLanguageModel()
            .thenAnswer("Alice is planning a trip to Lisbon in June 2024.")
            .thenAnswer("Alice is planning a trip to Lisbon in June 2024 and asked for tips.");
    Scope alice = Scope.user("alice");
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .inference(
                new ConsolidatingInference(
                    new ModelCaller(pipelineModel, RetryPolicy.none()), PipelineOptions.defaults()))
            .summarizer(new LlmSummarizer(new ModelCaller(summaryModel, RetryPolicy.none()), 200))
            .build()) {
      memory.add(
          AddRequest.builder(alice)
              .message(
                  new Message(
                      Role.USER,
                      "We fly to Lisbon in June!",
                      "Alice",
                      Instant.parse("2024-05-01T10:00:00Z"),
                      null))
              .build());
      waitFor(() -> StoreDump.of(dir).contains("Alice is planning a trip to Lisbon in June 2024."));
      assertThat(summaryModel.prompts().get(0).user())
          .contains("## Current summary\n(none)")
          .contains("Alice (user): We fly to Lisbon in June!");
      memory.add(AddRequest.builder(alice).user("Any tips?").build());
      assertThat(pipelineModel.prompts().get(1).user())
          .startsWith("## Summary\nAlice is planning a trip to Lisbon in June 2024.")
          .contains(
              "## Recent messages\n[2024-05-01 10:00 (Wednesday)] Alice (user): We fly to Lisbon in June!");
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 60 s");
      }
      Thread.sleep(20);
    }
  }
}

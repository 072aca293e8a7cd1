package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.spi.MemoryInference;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The additive pipeline, and per-scope ordering of consolidation, with scripted models (fakes: no
 * LLM here).
 */
class AdditiveAndConcurrencyScenarioTest {
  private static final Scope ALICE = Scope.user("alice");
  @TempDir Path dir;

  private Memory open(MemoryInference inference) {
    return Engram.builder()
        .storage(EmbeddedStorage.open(dir, 64))
        .embedder(new HashEmbedder())
        .inference(inference)
        .asyncThreads(8)
        .build();
  }

  @Test
  void additiveModeMakesOneCallPerAddAndDropsExactRepeats() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .thenAnswer(
                "{\"memories\": [{\"text\": \"Alice adopted a cat named Pixel on 3 March 2024\", \"links\": []},"
                    + " {\"text\": \"Alice adopted a cat named Pixel on 3 March 2024\", \"links\": []}]}")
            .thenAnswer(
                "{\"memories\": [{\"text\": \"Alice adopted a cat named Pixel on 3 March 2024\", \"links\": [0]},"
                    + " {\"text\": \"Alice plays the violin\", \"links\": [0]}]}");
    try (Memory memory =
        open(
            new AdditiveInference(
                new ModelCaller(model, RetryPolicy.none()), PipelineOptions.defaults()))) {
      AddResult first =
          memory.add(AddRequest.builder(ALICE).user("I adopted Pixel today!").build());
      assertThat(first.events()).extracting(MemoryEvent::event).containsExactly(EventType.ADD);
      assertThat(first.usage().llmCalls()).isEqualTo(1);
      AddResult second =
          memory.add(AddRequest.builder(ALICE).user("Pixel sleeps on my violin case.").build());
      assertThat(second.events()).extracting(MemoryEvent::event).containsExactly(EventType.ADD);
      assertThat(second.events().get(0).memory()).isEqualTo("Alice plays the violin");
      assertThat(model.calls()).isEqualTo(2);
      assertThat(model.prompts().get(1).user())
          .contains("0: Alice adopted a cat named Pixel on 3 March 2024");
      assertThat(memory.list(ListRequest.of(ALICE)).total()).isEqualTo(2);
    }
  }

  @Test
  void parallelAddsToOneScopeNeverDuplicateAFact() throws Exception {
    Pattern shown = Pattern.compile("(?m)^(\\d+): Alice likes tea$");
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .otherwise(
                p -> {
                  if (p.schemaName().equals("facts")) {
                    return "{\"facts\": [\"Alice likes tea\"]}";
                  }
                  var m = shown.matcher(p.user().substring(0, p.user().indexOf("## New facts")));
                  return m.find()
                      ? "{\"decisions\": [{\"fact\": 0, \"event\": \"NOOP\", \"id\": "
                          + m.group(1)
                          + ", \"text\": null}]}"
                      : "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice likes tea\"}]}";
                });
    try (Memory memory =
        open(
            new ConsolidatingInference(
                new ModelCaller(model, RetryPolicy.none()), PipelineOptions.defaults()))) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<AddResult>> results = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        String text = "I like tea, message " + i;
        results.add(pool.submit(() -> memory.add(AddRequest.builder(ALICE).user(text).build())));
      }
      int adds = 0;
      for (Future<AddResult> f : results) {
        adds += (int) f.get().events().stream().filter(e -> e.event() == EventType.ADD).count();
      }
      pool.shutdown();
      assertThat(adds).isEqualTo(1);
      assertThat(memory.list(ListRequest.of(ALICE)).items())
          .extracting(m -> m.text())
          .containsExactly("Alice likes tea");
      // Other scopes are not blocked by, nor mixed with, this one.
      memory.add(AddRequest.builder(Scope.user("bob")).user("I like tea too").build());
      assertThat(memory.list(ListRequest.of(Scope.user("bob"))).total()).isEqualTo(1);
    }
  }
}

package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.ChangePipelines;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.LanguageModelException;
import dev.engram.LanguageModelException.Kind;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.spi.LanguageModel;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consolidating pipeline end to end on the real embedded store, with a scripted language model
 * (a fake: no LLM is reachable here) that returns recorded answers.
 */
class ConsolidationScenarioTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant MAY_8 = Instant.parse("2023-05-08T13:56:00Z");

  @TempDir Path dir;
  private final ScriptedLanguageModel model = new ScriptedLanguageModel();
  private Memory memory;

  private Memory open() {
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .inference(
                new ConsolidatingInference(
                    new ModelCaller(model, RetryPolicy.defaults(), d -> {}),
                    PipelineOptions.defaults()))
            .build();
    return memory;
  }

  @AfterEach
  void close() {
    if (memory != null) {
      memory.close();
    }
  }

  private AddResult say(String text) {
    return memory.add(
        AddRequest.builder(ALICE)
            .message(
                new Message(
                    dev.engram.Role.USER, text, "Alice", MAY_8, "m-" + Math.abs(text.hashCode())))
            .build());
  }

  private static String facts(String... facts) {
    StringBuilder sb = new StringBuilder("{\"facts\": [");
    for (int i = 0; i < facts.length; i++) {
      sb.append(i == 0 ? "" : ", ").append('"').append(facts[i]).append('"');
    }
    return sb.append("]}").toString();
  }

  /** The number the pipeline showed for the existing memory with this text. */
  static int numberOf(LanguageModel.Prompt p, String text) {
    String existing = p.user().substring(0, p.user().indexOf("## New facts"));
    Matcher m = Pattern.compile("(?m)^(\\d+): " + Pattern.quote(text) + "$").matcher(existing);
    if (!m.find()) {
      throw new AssertionError("memory '" + text + "' not shown in: " + p.user());
    }
    return Integer.parseInt(m.group(1));
  }

  @Test
  void newFactIsAddedWithProvenanceAndUsage() {
    open();
    model
        .thenAnswer(facts("Alice loves sushi"))
        .thenAnswer(
            "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice loves sushi\"}]}");
    AddResult r = say("I love sushi!");
    assertThat(r.events())
        .extracting(MemoryEvent::event, MemoryEvent::memory)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(EventType.ADD, "Alice loves sushi"));
    var item = memory.get(r.events().get(0).id()).orElseThrow();
    assertThat(item.actorId()).isEqualTo("Alice");
    assertThat(item.eventTime()).isEqualTo(MAY_8);
    assertThat(item.sourceIds()).hasSize(1);
    assertThat(r.usage().llmCalls()).isEqualTo(2);
    assertThat(r.usage().inputTokens()).isPositive();
    // The extraction prompt shows the new message with its date and speaker.
    assertThat(model.prompts().get(0).user())
        .contains("[2023-05-08 13:56 (Monday)] Alice (user): I love sushi!");
    assertThat(model.prompts().get(1).user()).contains("(none)").contains("0: Alice loves sushi");
  }

  @Test
  void movingCityUpdatesTheMemoryAndKeepsTheOldTextInHistory() {
    open();
    model
        .thenAnswer(facts("Alice lives in Beijing"))
        .thenAnswer(
            "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice lives in Beijing\"}]}");
    String id = say("I live in Beijing.").events().get(0).id();
    model
        .thenAnswer(facts("Alice moved to Shanghai"))
        .thenAnswer(
            p ->
                "{\"decisions\": [{\"fact\": 0, \"event\": \"UPDATE\", \"id\": "
                    + numberOf(p, "Alice lives in Beijing")
                    + ", \"text\": \"Alice lives in Shanghai, having moved from Beijing\"}]}");
    AddResult r = say("I just moved to Shanghai.");
    assertThat(r.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.event()).isEqualTo(EventType.UPDATE);
              assertThat(e.id()).isEqualTo(id);
              assertThat(e.previousMemory()).isEqualTo("Alice lives in Beijing");
            });
    assertThat(memory.get(id).orElseThrow().text())
        .isEqualTo("Alice lives in Shanghai, having moved from Beijing");
    List<HistoryEntry> h = memory.history(id);
    assertThat(h).extracting(HistoryEntry::event).containsExactly(EventType.ADD, EventType.UPDATE);
    assertThat(h)
        .extracting(HistoryEntry::pipeline)
        .as("the model's UPDATE, not a direct edit")
        .containsOnly(ChangePipelines.CONSOLIDATE);
    assertThat(h.get(1).oldText()).isEqualTo("Alice lives in Beijing");
    assertThat(h.get(1).newText()).isEqualTo("Alice lives in Shanghai, having moved from Beijing");
    assertThat(memory.search(SearchRequest.builder(ALICE, "Shanghai").build()).hits())
        .extracting(hit -> hit.memory().id())
        .containsExactly(id);
  }

  @Test
  void contradictionDeletesTheMemoryButKeepsItsHistory() {
    open();
    model
        .thenAnswer(facts("Alice eats fish"))
        .thenAnswer(
            "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice eats fish\"}]}");
    String id = say("I eat fish.").events().get(0).id();
    model
        .thenAnswer(facts("Alice became vegan"))
        .thenAnswer(
            p ->
                "{\"decisions\": [{\"fact\": 0, \"event\": \"DELETE\", \"id\": "
                    + numberOf(p, "Alice eats fish")
                    + ", \"text\": null}, {\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice is vegan\"}]}");
    AddResult r = say("I became vegan.");
    assertThat(r.events())
        .extracting(MemoryEvent::event)
        .containsExactly(EventType.DELETE, EventType.ADD);
    assertThat(memory.get(id)).isEmpty();
    assertThat(memory.history(id))
        .extracting(HistoryEntry::event)
        .containsExactly(EventType.ADD, EventType.DELETE);
    assertThat(memory.history(id))
        .extracting(HistoryEntry::pipeline)
        .containsOnly(ChangePipelines.CONSOLIDATE);
    assertThat(memory.search(SearchRequest.builder(ALICE, "fish").build()).hits())
        .noneMatch(hit -> hit.memory().id().equals(id));
  }

  @Test
  void repeatIsNoopAndMixedEventsApplyInOneAdd() {
    open();
    model
        .thenAnswer(facts("Alice has a dog named Max", "Alice works at Acme"))
        .thenAnswer(
            "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice has a dog named Max\"},"
                + " {\"fact\": 1, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice works at Acme\"}]}");
    say("My dog Max and my job at Acme keep me busy.");
    model
        .thenAnswer(
            facts(
                "Alice has a dog named Max",
                "Alice works at Acme as an engineer",
                "Alice plays tennis"))
        .thenAnswer(
            p ->
                "{\"decisions\": ["
                    + "{\"fact\": 0, \"event\": \"NOOP\", \"id\": "
                    + numberOf(p, "Alice has a dog named Max")
                    + ", \"text\": null},"
                    + "{\"fact\": 1, \"event\": \"UPDATE\", \"id\": "
                    + numberOf(p, "Alice works at Acme")
                    + ", \"text\": \"Alice works at Acme as an engineer\"},"
                    + "{\"fact\": 2, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice plays tennis\"}]}");
    AddResult r = say("Max is fine; I'm an engineer at Acme and I play tennis.");
    assertThat(r.events())
        .extracting(MemoryEvent::event)
        .containsExactly(EventType.NOOP, EventType.UPDATE, EventType.ADD);
    assertThat(memory.list(ListRequest.of(ALICE)).items())
        .extracting(m -> m.text())
        .containsExactlyInAnyOrder(
            "Alice has a dog named Max",
            "Alice works at Acme as an engineer",
            "Alice plays tennis");
  }

  @Test
  void inventedIdsAreIgnoredAndTheRestApplies() {
    open();
    model
        .thenAnswer(facts("Alice likes tea"))
        .thenAnswer(
            "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice likes tea\"}]}");
    String id = say("I like tea.").events().get(0).id();
    model
        .thenAnswer(facts("Alice likes green tea", "Alice runs"))
        .thenAnswer(
            "{\"decisions\": [{\"fact\": 0, \"event\": \"UPDATE\", \"id\": 7, \"text\": \"hijacked\"},"
                + " {\"fact\": 0, \"event\": \"DELETE\", \"id\": \""
                + id
                + "\", \"text\": null},"
                + " {\"fact\": 1, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice runs\"}]}");
    AddResult r = say("Green tea, and I run.");
    assertThat(r.events()).extracting(MemoryEvent::event).containsExactly(EventType.ADD);
    assertThat(memory.get(id).orElseThrow().text()).isEqualTo("Alice likes tea");
  }

  @Test
  void emptyFactListMakesNoDecisionCall() {
    open();
    model.thenAnswer("{\"facts\": []}");
    AddResult r = say("Hi there!");
    assertThat(r.events()).isEmpty();
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void failuresAtEitherStepLeaveTheStoreUnchangedAndNameTheStep() {
    open();
    model
        .thenAnswer(facts("Alice lives in Beijing"))
        .thenAnswer(
            "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"Alice lives in Beijing\"}]}");
    say("I live in Beijing.");
    String before = StoreDump.of(dir);
    Object[][] cases = {
      {"fact extraction", Kind.TIMEOUT, 0},
      {"fact extraction", Kind.SERVER_ERROR, 0},
      {"fact extraction", Kind.INVALID_RESPONSE, 0},
      {"memory consolidation", Kind.TIMEOUT, 1},
      {"memory consolidation", Kind.SERVER_ERROR, 1},
      {"memory consolidation", Kind.INVALID_RESPONSE, 1},
    };
    for (Object[] c : cases) {
      if ((int) c[2] == 1) {
        model.thenAnswer(facts("Alice moved to Shanghai"));
      }
      for (int i = 0; i < 3; i++) {
        if (c[1] == Kind.INVALID_RESPONSE) {
          model.thenAnswer(
              i == 0
                  ? "garbage, not JSON"
                  : "{\"decisions\": [{\"fact\": 0, \"event\": \"ADD\", \"id\": null, \"text\": \"tru");
        } else {
          model.thenFail((Kind) c[1]);
        }
      }
      assertThatThrownBy(() -> say("I moved to Shanghai."))
          .as("%s %s", c[0], c[1])
          .isInstanceOfSatisfying(
              LanguageModelException.class, e -> assertThat(e.kind()).isEqualTo(c[1]))
          .hasMessageStartingWith((String) c[0] + " failed after");
      assertThat(StoreDump.of(dir)).as("%s %s", c[0], c[1]).isEqualTo(before);
      drainScript();
    }
  }

  private void drainScript() {
    // Unused scripted steps (an invalid answer is retried once, not three times) are consumed here.
    while (true) {
      try {
        model.complete(new LanguageModel.Prompt("", "", null, null, 1, 0));
      } catch (AssertionError e) {
        return;
      } catch (RuntimeException e) {
        // a scripted failure
      }
    }
  }
}

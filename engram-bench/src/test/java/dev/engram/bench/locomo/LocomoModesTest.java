package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.Fusion;
import dev.engram.Message;
import dev.engram.TokenCounter;
import dev.engram.ValidationException;
import dev.engram.bench.locomo.LocomoBench.Mode;
import dev.engram.bench.locomo.LocomoBench.Options;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.spi.MemoryInference;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The extract and llm modes and the speaker layout, run end to end on the mini fixture with top-k
 * 10 (more than any store holds, so every memory is retrieved and the metrics follow from what is
 * stored).
 */
class LocomoModesTest {
  @TempDir Path work;

  private Options options(Mode mode, ScopeLayout scopes) {
    return Options.builder(LocomoReaderTest.fixture(), mode, work)
        .scopes(scopes)
        .baselines(false)
        .build();
  }

  private static double extractedTokens() {
    // The seven memories of ConversationStoreTest.EXTRACTED.
    return ConversationStoreTest.EXTRACTED.stream()
        .mapToInt(l -> TokenCounter.cl100k().count((String) l.get(0)))
        .sum();
  }

  @Test
  void extractModeScoresTheExtractedFacts() {
    for (ScopeLayout layout : ScopeLayout.values()) {
      LocomoReport r =
          LocomoBench.run(
              options(Mode.EXTRACT, layout), new HashEmbedder(), LocomoBench.Hooks.none());
      assertThat(r.mode()).isEqualTo("extract");
      assertThat(r.scopes()).isEqualTo(layout.label());
      assertThat(r.turnsPerAdd()).isEqualTo(2);
      assertThat(extractedTokens()).isEqualTo(75.0);
      // The seven memories are stored once in either layout (in the speaker layout each in its
      // speaker's scope).
      assertThat(r.memoryTokensPerConversation()).isEqualTo(75.0);
      // Every question's evidence is among D1:1, D1:2, D2:1, all extracted.
      assertThat(r.overall().evidenceRecall()).isEqualTo(1.0);
      assertThat(r.overall().hit()).isEqualTo(1.0);
      // Answer tokens: Pixel 1, Porto 1, {11, april, 2024} 1 (the resolved date "(11 April 2024)"),
      // {pixel, knocked, violin, over} 3/4, {2024} 1 -> 4.75 / 5.
      assertThat(r.overall().answerTokenRecall()).isCloseTo(0.95, within(1e-12));
      assertThat(r.byCategory().get("2").answerTokenRecall()).isEqualTo(1.0);
      // Seven memories joined by newlines: about their 75 tokens, whatever the order.
      assertThat(r.overall().contextTokensMean()).isBetween(73.0, 80.0);
      assertThat(r.baselines()).isEmpty();
    }
  }

  @Test
  void storeRecallIsWhatTheIngestKeptWhateverTheSearchReturns() {
    // top-k 1: a question's one hit cannot hold all of its evidence, but every evidence turn left a
    // memory
    LocomoReport r =
        LocomoBench.run(
            Options.builder(LocomoReaderTest.fixture(), Mode.EXTRACT, work)
                .topK(1)
                .baselines(false)
                .build(),
            new HashEmbedder(),
            LocomoBench.Hooks.none());
    assertThat(r.overall().evidenceRecall()).isLessThan(1.0);
    assertThat(r.overall().extra()).containsEntry("evidence_recall_store", 1.0);
    assertThat(r.byCategory().values())
        .allSatisfy(c -> assertThat(c.extra()).containsEntry("evidence_recall_store", 1.0));
  }

  @Test
  void speakerLayoutStoresRawTurnsTwiceAndRetrievesEachOnce() {
    LocomoReport r =
        LocomoBench.run(
            options(Mode.RAW, ScopeLayout.SPEAKER), new HashEmbedder(), LocomoBench.Hooks.none());
    List<String> turns = turnTexts();
    double turnTokens = turns.stream().mapToInt(TokenCounter.cl100k()::count).sum();
    assertThat(r.memoryTokensPerConversation()).isEqualTo(2 * turnTokens);
    assertThat(r.overall().evidenceRecall()).isEqualTo(1.0);
    // As in the conversation layout: (1 + 1 + 0 + 0.75 + 0) / 5.
    assertThat(r.overall().answerTokenRecall()).isCloseTo(0.55, within(1e-12));
    // Each question's context is the seven texts once each, in some order, joined by newlines.
    double joined = TokenCounter.cl100k().count(String.join("\n", turns));
    assertThat(r.overall().contextTokensMean()).isBetween(joined - 2, joined + 2);
  }

  @Test
  void speakerPrefixStoresRawTurnsWithTheSpeakersName() {
    LocomoReport r =
        LocomoBench.run(
            options(Mode.RAW, ScopeLayout.CONVERSATION).withSpeakerPrefix(true),
            new HashEmbedder(),
            LocomoBench.Hooks.none());
    assertThat(r.speakerPrefix()).isTrue();
    assertThat(r.runLabel()).isEqualTo("engram raw+prefix/conversation k=10");
    // The stored texts are the RAG baselines' lines: 14 + 17 + 15 + 17 + 11 + 10 + 15 tokens
    // (RagBaselineTest).
    assertThat(r.memoryTokensPerConversation()).isEqualTo(99.0);
    // The names add answer tokens only where an answer holds a name; none of the five does: as
    // without prefix.
    assertThat(r.overall().answerTokenRecall()).isCloseTo(0.55, within(1e-12));
  }

  /** The seven turn texts, in order. */
  private static List<String> turnTexts() {
    return LocomoReader.read(LocomoReaderTest.fixture()).get(0).sessions().stream()
        .flatMap(s -> s.turns().stream())
        .map(Locomo.Turn::text)
        .toList();
  }

  /** An inference that stores each add's messages as one memory: their texts joined by a space. */
  private static final MemoryInference PAIRS =
      context ->
          List.of(
              new MemoryInference.Add(
                  String.join(" ", context.messages().stream().map(Message::content).toList()),
                  null,
                  null,
                  null,
                  context.messages().stream().map(Message::sourceId).toList()));

  @Test
  void llmModeUsesTheGivenInferenceInPairsOfTurnsUnfilteredInEitherLayout() {
    List<String> turns = turnTexts();
    // Pairs within sessions: (D1:1, D1:2), (D1:3, D1:4), (D2:1, D2:2), (D2:3).
    double pairTokens =
        TokenCounter.cl100k().count(turns.get(0) + " " + turns.get(1))
            + TokenCounter.cl100k().count(turns.get(2) + " " + turns.get(3))
            + TokenCounter.cl100k().count(turns.get(4) + " " + turns.get(5))
            + TokenCounter.cl100k().count(turns.get(6));
    LocomoReport conversation =
        LocomoBench.run(
            options(Mode.LLM, ScopeLayout.CONVERSATION),
            new HashEmbedder(),
            PAIRS,
            LocomoBench.Hooks.none());
    assertThat(conversation.mode()).isEqualTo("llm");
    assertThat(conversation.memoryTokensPerConversation()).isEqualTo(pairTokens);
    assertThat(conversation.overall().evidenceRecall()).isEqualTo(1.0);
    assertThat(conversation.overall().answerTokenRecall()).isCloseTo(0.55, within(1e-12));
    // No actor on these facts: the speaker layout does not filter the llm mode's facts, so both
    // scopes hold all.
    List<String> configured = new ArrayList<>();
    LocomoReport speaker =
        LocomoBench.runConfigured(
            options(Mode.LLM, ScopeLayout.SPEAKER),
            new HashEmbedder(),
            b -> {
              configured.add("setup");
              return b.inference(PAIRS);
            },
            LocomoBench.Hooks.none());
    assertThat(configured).hasSize(1);
    assertThat(speaker.memoryTokensPerConversation()).isEqualTo(2 * pairTokens);
    assertThat(speaker.overall().evidenceRecall()).isEqualTo(1.0);
  }

  @Test
  void llmModeWithoutAnInferenceAndBadOptionsAreRejected() {
    assertThatThrownBy(
            () ->
                LocomoBench.run(
                    options(Mode.LLM, ScopeLayout.CONVERSATION),
                    new HashEmbedder(),
                    LocomoBench.Hooks.none()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("llm");
    assertThatThrownBy(() -> options(Mode.RAW, ScopeLayout.CONVERSATION).withTurnsPerAdd(-1))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("turns_per_add");
    assertThatThrownBy(
            () -> options(Mode.EXTRACT, ScopeLayout.CONVERSATION).withSpeakerPrefix(true))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("speaker_prefix");
    assertThatThrownBy(
            () -> new Options(LocomoReaderTest.fixture(), Mode.RAW, 0, Fusion.RRF, 0, work))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("top_k")
        .hasMessageContaining("got 0");
  }

  @Test
  void turnsPerAddDefaultsByModeAndConversationsLimitsTheRun() {
    assertThat(options(Mode.RAW, ScopeLayout.CONVERSATION).effectiveTurnsPerAdd()).isEqualTo(1);
    assertThat(options(Mode.OBSERVATIONS, ScopeLayout.CONVERSATION).effectiveTurnsPerAdd())
        .isZero();
    assertThat(
            options(Mode.EXTRACT, ScopeLayout.CONVERSATION)
                .withTurnsPerAdd(1)
                .effectiveTurnsPerAdd())
        .isEqualTo(1);
    AtomicInteger progress = new AtomicInteger();
    LocomoBench.run(
        options(Mode.RAW, ScopeLayout.CONVERSATION), new HashEmbedder(), progress::addAndGet);
    assertThat(progress.get()).isEqualTo(7 + 5);
  }
}

package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Fusion;
import dev.engram.TokenCounter;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the harness on the project's own mini fixture with the hash test embedder (a fake: no
 * model), with top-k larger than the number of memories so every memory is retrieved and the
 * metrics can be worked out by hand.
 */
class LocomoBenchTest {
  @TempDir Path work;

  @Test
  void rawModeScoresMatchHandComputedValues() throws Exception {
    AtomicInteger progress = new AtomicInteger();
    LocomoBench.Options options =
        new LocomoBench.Options(
            LocomoReaderTest.fixture(), LocomoBench.Mode.RAW, 10, Fusion.RRF, 0, work);
    LocomoReport r = LocomoBench.run(options, new HashEmbedder(), progress::addAndGet);
    // Progress units: 7 turns ingested + 5 questions asked + 7 turns embedded for the per-turn
    // baselines + 7 turns for each of the 7 chunk sizes = 68.
    assertThat(progress.get()).isEqualTo(68);
    assertThat(LocomoBench.progressTotal(options)).isEqualTo(68);
    // Category 5 is left out: 5 questions. Every memory is retrieved, so evidence recall and hit
    // are 1.
    assertThat(r.questions()).isEqualTo(5);
    assertThat(r.overall().evidenceRecall()).isEqualTo(1.0);
    assertThat(r.overall().hit()).isEqualTo(1.0);
    // Answer-token recall: Pixel 1, Porto 1, {11, april, 2024} 0, {pixel, knocked, violin, over}
    // 3/4, {2024} 0.
    assertThat(r.overall().answerTokenRecall())
        .isCloseTo((1 + 1 + 0 + 0.75 + 0) / 5, within(1e-12));
    assertThat(r.byCategory()).containsOnlyKeys("1", "2", "4");
    assertThat(r.byCategory().get("4").answerTokenRecall()).isEqualTo(1.0);
    assertThat(r.byCategory().get("2").questions()).isEqualTo(2);
    assertThat(r.byCategory().get("1").answerTokenRecall()).isEqualTo(0.75);
    // Context = all seven turn texts joined by newlines, for every question, whatever their order.
    assertThat(r.overall().contextTokensMean())
        .isBetween(allTurnsTokens() - 2.0, allTurnsTokens() + 2.0);
    assertThat(r.memoryTokensPerConversation()).isEqualTo(turnTokenSum());
    JsonNode json = new ObjectMapper().readTree(r.toJson());
    assertThat(json.path("overall").path("evidence_recall").asDouble()).isEqualTo(1.0);
    assertThat(json.path("latency_ms").has("search_p95")).isTrue();
    assertThat(json.path("by_category").path("2").path("questions").asInt()).isEqualTo(2);
    assertThat(r.toMarkdown()).contains("| 2 (temporal) | 2 |");
  }

  @Test
  void observationModeStoresTheObservationsWithTheirDiaIds() {
    LocomoReport r =
        LocomoBench.run(
            new LocomoBench.Options(
                LocomoReaderTest.fixture(), LocomoBench.Mode.OBSERVATIONS, 10, Fusion.RRF, 0, work),
            new HashEmbedder(),
            n -> {});
    assertThat(r.overall().evidenceRecall()).isEqualTo(1.0);
    assertThat(r.overall().answerTokenRecall()).isCloseTo(0.55, within(1e-12));
    double obsTokens =
        TokenCounter.cl100k().count("Ada adopted a grey cat named Pixel.")
            + TokenCounter.cl100k()
                .count(
                    "Ben works as a baker in Porto and bakes sourdough and croissants from five o'clock.")
            + TokenCounter.cl100k()
                .count("Ada's cat Pixel knocked her violin off the shelf; one string broke.")
            + TokenCounter.cl100k().count("Ada plays in a quartet on Fridays.");
    assertThat(r.memoryTokensPerConversation()).isEqualTo(obsTokens);
  }

  private static double turnTokenSum() {
    return LocomoReader.read(LocomoReaderTest.fixture()).get(0).sessions().stream()
        .flatMap(s -> s.turns().stream())
        .mapToInt(t -> TokenCounter.cl100k().count(t.text()))
        .sum();
  }

  private static double allTurnsTokens() {
    return TokenCounter.cl100k()
        .count(
            String.join(
                "\n",
                LocomoReader.read(LocomoReaderTest.fixture()).get(0).sessions().stream()
                    .flatMap(s -> s.turns().stream())
                    .map(Locomo.Turn::text)
                    .toList()));
  }

  @Test
  void aTokenBudgetLimitsEachQuestionsContext() {
    LocomoBench.Options options =
        new LocomoBench.Options(
                LocomoReaderTest.fixture(), LocomoBench.Mode.RAW, 10, Fusion.RRF, 0, work)
            .withBaselines(false)
            .withBudgetTokens(12)
            .withThreshold(0);
    LocomoReport r = LocomoBench.run(options, new HashEmbedder(), n -> {});
    // the budget counts each hit's text in cl100k tokens; the harness counts the hits joined by
    // line breaks, and a
    // line break between two of them is at most one token more
    assertThat(r.overall().contextTokensMean()).isPositive().isLessThanOrEqualTo(12 + 2);
    assertThat(r.overall().extra().get("context_tokens_estimate"))
        .as("the estimate, reported beside it")
        .isPositive();
    LocomoReport all = LocomoBench.run(options.withBudgetTokens(0), new HashEmbedder(), n -> {});
    assertThat(all.overall().extra())
        .as("the estimate is reported with a budget only")
        .doesNotContainKey("context_tokens_estimate");
    assertThat(all.overall().contextTokensMean()).isGreaterThan(r.overall().contextTokensMean());
    assertThat(r.overall().evidenceRecall()).isLessThanOrEqualTo(all.overall().evidenceRecall());
  }

  @Test
  void offTopicQuestionsComeFromAnotherConversation() throws Exception {
    ObjectMapper json = new ObjectMapper();
    com.fasterxml.jackson.databind.node.ArrayNode file =
        (com.fasterxml.jackson.databind.node.ArrayNode)
            json.readTree(LocomoReaderTest.fixture().toFile());
    com.fasterxml.jackson.databind.node.ObjectNode copy = file.get(0).deepCopy();
    copy.put("sample_id", "copy-of-" + file.get(0).path("sample_id").asText());
    file.add(copy);
    Path two = work.resolve("two.json");
    json.writeValue(two.toFile(), file);
    LocomoBench.Options options =
        new LocomoBench.Options(two, LocomoBench.Mode.RAW, 10, Fusion.RRF, 0, work)
            .withBaselines(false)
            .withOffTopic(true)
            .withThreshold(0);
    LocomoReport r = LocomoBench.run(options, new HashEmbedder(), n -> {});
    // the other conversation is the same text: every "off-topic" question finds memories at
    // threshold 0
    assertThat(r.overall().extra())
        .containsEntry("offtopic_empty", 0.0)
        .containsKey("offtopic_empty@0.50")
        .containsKey("evidence_recall@0.20");
    assertThat(r.overall().extra().get("offtopic_empty@0.95")).isBetween(0.0, 1.0);
    assertThat(r.overall().extra().get("evidence_recall@0.05"))
        .isLessThanOrEqualTo(r.overall().evidenceRecall());
    // each conversation scored apart, its off-topic columns those of its own store
    String first = file.get(0).path("sample_id").asText();
    assertThat(r.byConversation()).containsOnlyKeys(first, "copy-of-" + first);
    assertThat(r.byConversation().get(first).questions() * 2).isEqualTo(r.questions());
    assertThat(r.byConversation().values())
        .allSatisfy(s -> assertThat(s.extra()).containsEntry("offtopic_empty", 0.0));
    assertThat(
            json.readTree(r.toJson()).path("by_conversation").path(first).path("questions").asInt())
        .isEqualTo(r.byConversation().get(first).questions());
    Path saved = work.resolve("report.json");
    r.writeJson(saved);
    assertThat(LocomoReport.readJson(saved).byConversation()).isEqualTo(r.byConversation());
    assertThat(r.toMarkdown())
        .contains("| conversation | questions |")
        .contains("| copy-of-" + first + " |")
        .contains("its store asked the next conversation's questions");

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                LocomoBench.run(
                    new LocomoBench.Options(
                            LocomoReaderTest.fixture(),
                            LocomoBench.Mode.RAW,
                            10,
                            Fusion.RRF,
                            0,
                            work)
                        .withOffTopic(true),
                    new HashEmbedder(),
                    n -> {}))
        .isInstanceOf(dev.engram.ValidationException.class)
        .hasMessageContaining("off_topic");
  }
}

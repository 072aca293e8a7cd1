package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Fusion;
import dev.engram.GraphRelation;
import dev.engram.SearchResult;
import dev.engram.bench.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.LocomoBench.Mode;
import dev.engram.bench.locomo.LocomoBench.Options;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.testing.HashEmbedder;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --graph}: the offline graph memory on, relations scored beside the memories. Real embedded stores with the
 * hash test embedder (a fake: no model) and top-k 10, more than any store holds, so every memory and every relation
 * is retrieved and the metrics follow from what is stored.
 *
 * <p>What the offline graph extractor stores (its rules: the memory's actor plus the capitalised name spans of the
 * text, linked pairwise by {@code related_to} with the memory text as fact; a repeated (source, relation, target)
 * only adds provenance; {@code validAt} is the add's time; source ids are every message id of the add).
 */
class LocomoGraphTest {
  private static final Instant SESSION_1 = Instant.parse("2024-03-03T09:15:00Z");

  @TempDir Path work;

  static Path graphFixture() {
    try {
      return Path.of(LocomoGraphTest.class.getResource("/mini-locomo-graph.json").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The mini fixture in the observations mode, one add per session. Session 1 stores "Ada adopted a grey cat named
   * Pixel." (Ada; names Ada, Pixel) and "Ben works as a baker in Porto and ..." (Ben; Ben, Porto); session 2
   * "Ada's cat Pixel knocked her violin off the shelf; one string broke." (Ada; Ada, Pixel: the same edge as the
   * first, so only provenance) and "Ada plays in a quartet on Fridays." (Ada; Ada, Fridays). Three relations.
   */
  @Test
  void observationsWithTheGraphCountRelationLinesAsContextAndAnswerTokens() {
    Options o = new Options(LocomoReaderTest.fixture(), Mode.OBSERVATIONS, ScopeLayout.CONVERSATION, 10, Fusion.RRF,
        0, 0, false, false, true, work);
    LocomoReport r = LocomoBench.run(o, new HashEmbedder(), LocomoBench.Hooks.none());
    assertThat(r.graph()).isTrue();
    assertThat(r.runLabel()).isEqualTo("engram observations+graph/conversation k=10");
    List<String> memories = List.of("Ada adopted a grey cat named Pixel.",
        "Ben works as a baker in Porto and bakes sourdough and croissants from five o'clock.",
        "Ada's cat Pixel knocked her violin off the shelf; one string broke.",
        "Ada plays in a quartet on Fridays.");
    List<String> relations = List.of("Ada adopted a grey cat named Pixel. [valid from 2024-03-03]",
        "Ben works as a baker in Porto and bakes sourdough and croissants from five o'clock. [valid from 2024-03-03]",
        "Ada plays in a quartet on Fridays. [valid from 2024-04-12]");
    // Evidence is covered by the memories alone, as without the graph.
    assertThat(r.overall().evidenceRecall()).isEqualTo(1.0);
    assertThat(r.overall().hit()).isEqualTo(1.0);
    assertThat(r.overall().extra()).containsEntry("relations_per_query", 3.0)
        .containsEntry("evidence_recall_memory_provenance", 1.0).containsEntry("hit_memory_provenance", 1.0);
    // Answer tokens over the four memories and the three relation lines: Pixel 1, Porto 1, {11, april, 2024} 1/3
    // ("2024" of a date bracket), {pixel, knocked, violin, over} 3/4, {2024} 1. Without the graph: 1, 1, 0, 3/4, 0.
    assertThat(r.overall().answerTokenRecall()).isCloseTo((1 + 1 + 1.0 / 3 + 0.75 + 1) / 5, within(1e-12));
    assertThat(r.byCategory().get("2").answerTokenRecall()).isCloseTo((1.0 / 3 + 1) / 2, within(1e-12));
    // Seven lines, each ending in "." or "]"; cl100k encodes ".\n" and "]\n" as one token each, so the joined
    // context has exactly the lines' own tokens, in any order.
    int lineTokens = 0;
    for (String line : concat(memories, relations)) {
      lineTokens += TokenCounter.count(line);
    }
    assertThat(TokenCounter.count(String.join("\n", concat(memories, relations)))).isEqualTo(lineTokens);
    assertThat(r.overall().contextTokensMean()).isEqualTo(lineTokens);
    // The stored memories are the same as without the graph.
    assertThat(r.memoryTokensPerConversation()).isEqualTo(
        memories.stream().mapToInt(TokenCounter::count).sum());
  }

  /**
   * The graph fixture: one session, D1:1 (Ada adopts Pixel) and D1:2 (Ben likes the name); one observation, citing
   * D1:1; one question whose evidence is D1:1 and D1:2. The memory covers D1:1; the relation Ada -related_to-> Pixel
   * (fact: the observation) has the add's message ids D1:1 and D1:2 as source ids, so with the graph both count.
   */
  @Test
  void relationSourceIdsCountAsRetrievedEvidenceAndTheJsonSaysGraph() throws Exception {
    String memory = "Ada adopted a grey cat named Pixel.";
    String line = memory + " [valid from 2024-03-03]";
    for (ScopeLayout layout : ScopeLayout.values()) {
      Options off = new Options(graphFixture(), Mode.OBSERVATIONS, layout, 10, Fusion.RRF, 0, 0, false, false,
          work);
      LocomoReport without = LocomoBench.run(off, new HashEmbedder(), LocomoBench.Hooks.none());
      assertThat(without.graph()).isFalse();
      assertThat(without.overall().evidenceRecall()).isEqualTo(0.5);
      assertThat(without.overall().hit()).isEqualTo(1.0);
      assertThat(without.overall().answerTokenRecall()).isZero();
      assertThat(without.overall().contextTokensMean()).isEqualTo(TokenCounter.count(memory));
      assertThat(without.overall().extra()).isEmpty();

      List<SearchResult> seen = new ArrayList<>();
      LocomoReport with = LocomoBench.run(off.withGraph(true), new HashEmbedder(),
          LocomoBench.Hooks.none().withObserver(recording(seen)));
      assertThat(with.graph()).isTrue();
      assertThat(with.overall().evidenceRecall()).isEqualTo(1.0);
      assertThat(with.overall().hit()).isEqualTo(1.0);
      // {3, march, 2024}: the relation line's date gives 2024.
      assertThat(with.overall().answerTokenRecall()).isCloseTo(1.0 / 3, within(1e-12));
      assertThat(with.overall().contextTokensMean()).isEqualTo(TokenCounter.count(memory + "\n" + line));
      // Through the memory the relation came from, only D1:1 is evidence.
      assertThat(with.overall().extra()).containsEntry("relations_per_query", 1.0)
          .containsEntry("evidence_recall_memory_provenance", 0.5).containsEntry("hit_memory_provenance", 1.0);
      // The observer saw the relation with its provenance and dates.
      assertThat(seen).hasSize(1);
      GraphRelation relation = seen.get(0).relations().get(0);
      assertThat(relation.source()).isEqualTo("Ada");
      assertThat(relation.relationship()).isEqualTo("related_to");
      assertThat(relation.destination()).isEqualTo("Pixel");
      assertThat(relation.fact()).isEqualTo(memory);
      assertThat(relation.sourceIds()).containsExactly("D1:1", "D1:2");
      assertThat(relation.memoryIds()).containsExactly(seen.get(0).hits().get(0).memory().id());
      assertThat(relation.validAt()).isEqualTo(SESSION_1);
      assertThat(RelationLine.render(relation)).isEqualTo(line);

      JsonNode json = new ObjectMapper().readTree(with.toJson());
      assertThat(json.get("graph").asBoolean()).isTrue();
      assertThat(json.path("overall").path("evidence_recall").asDouble()).isEqualTo(1.0);
      assertThat(json.path("by_category").path("2").path("evidence_recall").asDouble()).isEqualTo(1.0);
      assertThat(json.path("overall").path("relations_per_query").asDouble()).isEqualTo(1.0);
      assertThat(json.path("overall").path("evidence_recall_memory_provenance").asDouble()).isEqualTo(0.5);
      assertThat(LocomoReport.readJson(write(with, layout)).graph()).isTrue();
      assertThat(with.toMarkdown()).contains("relations_per_query");
    }
  }

  @Test
  void questionScoreCountsRelationSourcesAndLines() {
    Question q = new Question("When did Ada adopt Pixel?", "3 March 2024", List.of("D1:1", "D1:2"), 2);
    GraphRelation r = new GraphRelation("r", "Ada", "related_to", "Pixel", "Ada adopted Pixel.", SESSION_1, null,
        SESSION_1, null, 1.0, List.of("D1:2"), List.of());
    LocomoReport.QuestionScore none = LocomoReport.QuestionScore.ofSearch(q, List.of(), List.of());
    assertThat(none.evidenceRecall()).isZero();
    assertThat(none.contextTokens()).isZero();
    LocomoReport.QuestionScore one = LocomoReport.QuestionScore.ofSearch(q, List.of(), List.of(r));
    assertThat(one.evidenceRecall()).isEqualTo(0.5);
    assertThat(one.hit()).isEqualTo(1.0);
    assertThat(one.contextTokens()).isEqualTo(TokenCounter.count("Ada adopted Pixel. [valid from 2024-03-03]"));
    assertThat(one.answerTokenRecall()).isCloseTo(1.0 / 3, within(1e-12));
  }

  @Test
  void relationLinesShowTheFactAndTheDatesThatAreSet() {
    Instant from = Instant.parse("2023-05-08T13:56:00Z");
    Instant to = Instant.parse("2023-06-01T00:00:00Z");
    assertThat(RelationLine.render(relation("Alice lives in\nBeijing ", from, to)))
        .isEqualTo("Alice lives in Beijing [valid 2023-05-08 to 2023-06-01]");
    assertThat(RelationLine.render(relation("Alice lives in Shanghai", to, null)))
        .isEqualTo("Alice lives in Shanghai [valid from 2023-06-01]");
    assertThat(RelationLine.render(relation("Alice lived in Paris", null, from)))
        .isEqualTo("Alice lived in Paris [valid until 2023-05-08]");
    assertThat(RelationLine.render(relation("Alice knows Bob", null, null))).isEqualTo("Alice knows Bob");
  }

  private static GraphRelation relation(String fact, Instant from, Instant to) {
    return new GraphRelation("r", "Alice", "lives_in", "X", fact, from, to, SESSION_1, null, 1.0);
  }

  private Path write(LocomoReport r, ScopeLayout layout) {
    Path file = work.resolve("report-" + layout.label() + ".json");
    r.writeJson(file);
    return file;
  }

  private static QuestionObserver recording(List<SearchResult> seen) {
    return new QuestionObserver() {
      @Override
      public CompletionStage<Map<String, Double>> onSearch(Conversation c, Question q,
                                                           List<dev.engram.SearchHit> hits) {
        throw new AssertionError("the benchmark passes the whole search result");
      }

      @Override
      public CompletionStage<Map<String, Double>> onSearch(Conversation c, Question q, SearchResult result) {
        seen.add(result);
        return CompletableFuture.completedFuture(Map.of());
      }
    };
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}

package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.GraphRelation;
import dev.engram.SearchResult;
import dev.engram.TokenCounter;
import dev.engram.bench.answer.RetrievedMemory;
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
 * {@code --graph}: the offline graph memory on, relations scored beside the memories. Real embedded
 * stores with the hash test embedder (a fake: no model) and top-k 10, more than any store holds, so
 * every memory and every relation is retrieved and the metrics follow from what is stored.
 *
 * <p>What the offline graph extractor stores (its rules: the memory's actor plus the capitalised
 * name spans of the text, linked pairwise by {@code related_to} with the memory text as fact; a
 * repeated (source, relation, target) only adds provenance; {@code validAt} is the add's time;
 * source ids are those of the memory it came from, so a relation of a session-sized add names only
 * its own observation's dia_id).
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
   * The mini fixture in the observations mode, one add per session, top-k 10: every memory is
   * retrieved, and the offline graph's relations state memory texts (its facts are the memories'
   * texts), so no relation adds a context line: the context, evidence and answer tokens are those
   * without the graph. Session 1 stores "Ada adopted a grey cat named Pixel." and "Ben works as a
   * baker in Porto and ..."; session 2 "Ada's cat Pixel knocked her violin off the shelf; one
   * string broke." and "Ada plays in a quartet on Fridays.": three relations in the store.
   */
  @Test
  void relationsThatRepeatARetrievedMemoryAddNoContextLine() {
    Options o =
        Options.builder(LocomoReaderTest.fixture(), Mode.OBSERVATIONS, work)
            .baselines(false)
            .graph(true)
            .build();
    LocomoReport r = LocomoBench.run(o, new HashEmbedder(), LocomoBench.Hooks.none());
    assertThat(r.graph()).isTrue();
    assertThat(r.runLabel()).isEqualTo("engram observations+graph/conversation k=10");
    List<String> memories =
        List.of(
            "Ada adopted a grey cat named Pixel.",
            "Ben works as a baker in Porto and bakes sourdough and croissants from five o'clock.",
            "Ada's cat Pixel knocked her violin off the shelf; one string broke.",
            "Ada plays in a quartet on Fridays.");
    assertThat(r.overall().evidenceRecall()).isEqualTo(1.0);
    assertThat(r.overall().hit()).isEqualTo(1.0);
    assertThat(r.overall().extra())
        .containsEntry("relations_per_query", 0.0)
        .containsEntry("evidence_recall_memory_provenance", 1.0)
        .containsEntry("hit_memory_provenance", 1.0);
    // Answer tokens over the four memories: Pixel 1, Porto 1, {11, april, 2024} 0, {pixel, knocked,
    // violin, over}
    // 3/4, {2024} 0: as without the graph.
    assertThat(r.overall().answerTokenRecall())
        .isCloseTo((1 + 1 + 0 + 0.75 + 0) / 5, within(1e-12));
    assertThat(r.overall().contextTokensMean())
        .isEqualTo(TokenCounter.cl100k().count(String.join("\n", memories)));
    assertThat(r.memoryTokensPerConversation())
        .isEqualTo(memories.stream().mapToInt(TokenCounter.cl100k()::count).sum());
  }

  /**
   * The graph fixture: one session, D1:1 (Ada adopts Pixel) and D1:2 (Ben likes the name); two
   * observations, "Ada adopted a grey cat named Pixel." citing D1:1 and "Ben likes the name Pixel."
   * citing D1:2; one question naming Pixel whose evidence is D1:1 and D1:2. At top-k 1 one memory
   * is retrieved; the other is reached through the entity Pixel: its relation (Ada -related_to->
   * Pixel or Ben -related_to-> Pixel, the fact being that memory's text) is the one context line
   * the graph adds, and brings the other half of the evidence.
   */
  @Test
  void aRelationReachingAMemoryBeyondTopKAddsItsLineAndEvidenceAndTheJsonSaysGraph()
      throws Exception {
    Map<String, String> dia =
        Map.of("Ada adopted a grey cat named Pixel.", "D1:1", "Ben likes the name Pixel.", "D1:2");
    for (ScopeLayout layout : ScopeLayout.values()) {
      Options off =
          Options.builder(graphFixture(), Mode.OBSERVATIONS, work)
              .scopes(layout)
              .topK(1)
              .baselines(false)
              .build();
      LocomoReport without = LocomoBench.run(off, new HashEmbedder(), LocomoBench.Hooks.none());
      assertThat(without.graph()).isFalse();
      assertThat(without.overall().evidenceRecall()).isEqualTo(0.5);
      assertThat(without.overall().hit()).isEqualTo(1.0);
      // without the graph the only further metric is the store's recall: both evidence turns were
      // kept
      assertThat(without.overall().extra())
          .containsOnlyKeys("evidence_recall_store", "context_tokens_prompt")
          .containsEntry("evidence_recall_store", 1.0);

      List<SearchResult> seen = new ArrayList<>();
      LocomoReport with =
          LocomoBench.run(
              off.withGraph(true),
              new HashEmbedder(),
              LocomoBench.Hooks.none().withObserver(recording(seen)));
      assertThat(with.graph()).isTrue();
      assertThat(seen).hasSize(1);
      SearchResult result = seen.get(0);
      assertThat(result.hits()).hasSize(1);
      String memory = result.hits().get(0).memory().text();
      assertThat(dia).containsKey(memory);
      String other = dia.keySet().stream().filter(t -> !t.equals(memory)).findFirst().orElseThrow();
      assertThat(result.relations())
          .as(layout.label())
          .singleElement()
          .satisfies(
              relation -> {
                assertThat(relation.fact()).isEqualTo(other);
                assertThat(relation.relationship()).isEqualTo("related_to");
                assertThat(relation.destination()).isEqualTo("Pixel");
                assertThat(relation.validAt()).isEqualTo(SESSION_1);
                assertThat(relation.sourceIds()).containsExactly(dia.get(other));
              });
      String line = other + " [valid from 2024-03-03]";
      assertThat(RelationLine.render(result.relations().get(0))).isEqualTo(line);
      assertThat(with.overall().evidenceRecall()).isEqualTo(1.0);
      assertThat(with.overall().hit()).isEqualTo(1.0);
      // the memory's text and the relation's fact, as the engine's token budget counts them
      assertThat(with.overall().contextTokensMean())
          .isEqualTo(TokenCounter.cl100k().count(memory + "\n" + other));
      // {3, march, 2024}: a relation's dates, like a memory's, are not part of its text
      assertThat(with.overall().answerTokenRecall()).isZero();
      // the lines the answer model gets: the memory with its date and speaker, the relation with
      // its dates
      assertThat(with.overall().extra())
          .containsEntry(
              "context_tokens_prompt",
              (double)
                  TokenCounter.cl100k()
                      .count(
                          RetrievedMemory.of(result.hits().get(0).memory()).render()
                              + "\n- "
                              + line));
      // Through the memory the relation came from, its dia_id is evidence too.
      assertThat(with.overall().extra())
          .containsEntry("relations_per_query", 1.0)
          .containsEntry("evidence_recall_memory_provenance", 1.0)
          .containsEntry("hit_memory_provenance", 1.0);

      JsonNode json = new ObjectMapper().readTree(with.toJson());
      assertThat(json.get("graph").asBoolean()).isTrue();
      assertThat(json.path("overall").path("evidence_recall").asDouble()).isEqualTo(1.0);
      assertThat(json.path("by_category").path("2").path("evidence_recall").asDouble())
          .isEqualTo(1.0);
      assertThat(json.path("overall").path("relations_per_query").asDouble()).isEqualTo(1.0);
      assertThat(LocomoReport.readJson(write(with, layout)).graph()).isTrue();
      assertThat(with.toMarkdown()).contains("relations_per_query");
    }
  }

  @Test
  void questionScoreCountsRelationSourcesAndFacts() {
    Question q =
        new Question("When did Ada adopt Pixel?", "3 March 2024", List.of("D1:1", "D1:2"), 2);
    GraphRelation r =
        new GraphRelation(
            "r",
            "Ada",
            "related_to",
            "Pixel",
            "Ada adopted Pixel.",
            SESSION_1,
            null,
            SESSION_1,
            null,
            1.0,
            List.of("D1:2"),
            List.of());
    LocomoReport.QuestionScore none = LocomoReport.QuestionScore.ofSearch(q, List.of(), List.of());
    assertThat(none.evidenceRecall()).isZero();
    assertThat(none.contextTokens()).isZero();
    LocomoReport.QuestionScore one = LocomoReport.QuestionScore.ofSearch(q, List.of(), List.of(r));
    assertThat(one.evidenceRecall()).isEqualTo(0.5);
    assertThat(one.hit()).isEqualTo(1.0);
    // the fact, without the dates the line shows (a memory's text is counted without its date too)
    assertThat(one.contextTokens()).isEqualTo(TokenCounter.cl100k().count("Ada adopted Pixel."));
    assertThat(one.answerTokenRecall())
        .isZero(); // {3, march, 2024}: the date is the line's, not the fact's
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
    assertThat(RelationLine.render(relation("Alice knows Bob", null, null)))
        .isEqualTo("Alice knows Bob");
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
      public CompletionStage<Map<String, Double>> onSearch(
          Conversation c, Question q, List<dev.engram.SearchHit> hits) {
        throw new AssertionError("the benchmark passes the whole search result");
      }

      @Override
      public CompletionStage<Map<String, Double>> onSearch(
          Conversation c, Question q, SearchResult result) {
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

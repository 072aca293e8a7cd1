package dev.engram.bench.locomo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Fusion;
import dev.engram.SearchHit;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.LocomoBench.Mode;
import dev.engram.bench.locomo.LocomoBench.Options;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.bench.locomo.LocomoReport.QuestionScore;
import dev.engram.testing.HashEmbedder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The report's JSON keys, the observer hook, the averaging rules, and the SVG chart. */
class LocomoReportTest {
  static final List<String> BASELINES =
      List.of(
          "dense-turns-k10",
          "dense-turns-500t",
          "dense-turns-1500t",
          "bm25-turns-k10",
          "bm25-turns-500t",
          "bm25-turns-1500t",
          "rag-128-k1",
          "rag-128-k2",
          "rag-256-k1",
          "rag-256-k2",
          "rag-512-k1",
          "rag-512-k2",
          "rag-1024-k1",
          "rag-1024-k2",
          "rag-2048-k1",
          "rag-2048-k2",
          "rag-4096-k1",
          "rag-4096-k2",
          "rag-8192-k1",
          "rag-8192-k2",
          "full-context");

  @TempDir Path work;

  /** Reports the number of hits and contexts it saw, from another thread. */
  static final class CountingObserver implements QuestionObserver {
    final ExecutorService pool = Executors.newFixedThreadPool(2);
    final List<String> seen = new ArrayList<>();

    @Override
    public CompletionStage<Map<String, Double>> onSearch(
        Conversation c, Question q, List<SearchHit> hits) {
      seen.add(q.question());
      return CompletableFuture.supplyAsync(
          () ->
              Map.of(
                  "hits",
                  (double) hits.size(),
                  "distinct_sources",
                  (double) hits.stream().map(h -> h.memory().sourceIds()).distinct().count()),
          pool);
    }

    @Override
    public CompletionStage<Map<String, Double>> onBaseline(
        String name, Conversation c, Question q, List<String> contexts) {
      return CompletableFuture.supplyAsync(
          () -> Map.of("contexts", (double) contexts.size()), pool);
    }
  }

  @Test
  void jsonHasTheIssuesKeysAndTheObserversMetricsAtBothLevels() throws Exception {
    CountingObserver observer = new CountingObserver();
    Options o =
        Options.builder(LocomoReaderTest.fixture(), Mode.RAW, work)
            .scopes(ScopeLayout.SPEAKER)
            .topK(3)
            .fusion(Fusion.WEIGHTED)
            .conversations(1)
            .build();
    LocomoReport r =
        LocomoBench.run(o, new HashEmbedder(), LocomoBench.Hooks.none().withObserver(observer));
    observer.pool.shutdown();
    assertThat(observer.seen).hasSize(5);
    JsonNode json = new ObjectMapper().readTree(r.toJson());
    assertThat(fields(json))
        .containsExactly(
            "dataset",
            "mode",
            "scopes",
            "turns_per_add",
            "speaker_prefix",
            "graph",
            "top_k",
            "embedder",
            "fusion",
            "questions",
            "overall",
            "by_category",
            "by_conversation",
            "latency_ms",
            "ingest_turns_per_second",
            "memory_tokens_per_conversation",
            "longest_message_chars",
            "baselines");
    assertThat(json.get("dataset").asText()).isEqualTo("mini-locomo.json");
    assertThat(json.get("scopes").asText()).isEqualTo("speaker");
    assertThat(json.get("fusion").asText()).isEqualTo("weighted");
    assertThat(json.get("graph").asBoolean()).isFalse();
    // The merged top-3 of both speakers' scopes: three hits, three different turns, for every
    // question.
    assertThat(fields(json.get("overall")))
        .containsExactly(
            "questions",
            "evidence_questions",
            "evidence_recall",
            "hit",
            "answer_token_recall",
            "context_tokens_mean",
            "context_tokens_prompt",
            "distinct_sources",
            "evidence_recall_store",
            "hits");
    assertThat(json.at("/overall/evidence_recall_store").asDouble())
        .isEqualTo(1.0); // raw turns keep every turn
    assertThat(json.at("/overall/hits").asDouble()).isEqualTo(3.0);
    assertThat(json.at("/overall/distinct_sources").asDouble()).isEqualTo(3.0);
    assertThat(fields(json.get("by_category"))).containsExactly("1", "2", "4");
    assertThat(json.at("/by_category/2/hits").asDouble()).isEqualTo(3.0);
    assertThat(fields(json.get("latency_ms")))
        .containsExactly(
            "search_p50",
            "search_p95",
            "search_p99",
            "ingest_per_turn_mean",
            "ingest_embedding_per_turn_mean",
            "ingest_embedded_texts_per_turn");
    // the turns are embedded (three turns, one text each), and that takes time within the ingest
    assertThat(json.at("/latency_ms/ingest_embedded_texts_per_turn").asDouble())
        .isGreaterThanOrEqualTo(1.0);
    assertThat(json.at("/latency_ms/ingest_embedding_per_turn_mean").asDouble())
        .isPositive()
        .isLessThanOrEqualTo(json.at("/latency_ms/ingest_per_turn_mean").asDouble());
    assertThat(json.get("baselines").findValuesAsText("name")).containsExactlyElementsOf(BASELINES);
    assertThat(fields(json.get("baselines").get(0)))
        .containsExactly(
            "name",
            "evidence_recall",
            "hit",
            "answer_token_recall",
            "context_tokens_mean",
            "contexts");
    // The per-turn baselines hold all seven turns (99 tokens) at every setting; the 99-token
    // fixture is one chunk at every RAG size, so k = 2 still gives one context.
    int perTurn = TurnBaselines.names().size();
    List<JsonNode> contexts = json.get("baselines").findValues("contexts");
    assertThat(contexts.subList(0, perTurn)).allSatisfy(n -> assertThat(n.asDouble()).isEqualTo(7));
    assertThat(contexts.subList(perTurn, contexts.size()))
        .allSatisfy(n -> assertThat(n.asDouble()).isEqualTo(1));
    assertThat(json.get("baselines").findValues("evidence_recall"))
        .allSatisfy(n -> assertThat(n.asDouble()).isEqualTo(1));
    assertThat(json.get("baselines").findValues("context_tokens_mean"))
        .allSatisfy(n -> assertThat(n.asDouble()).isEqualTo(99));
    assertThat(r.toMarkdown())
        .contains("| **overall** | 5 |")
        .contains(" hits |")
        .contains("| rag-8192-k2 | 1.000 |")
        .contains("| full-context | 1.000 | 1.000 | 0.550 | 99 | 1.000 |");
  }

  @Test
  void metricsComputedAfterTheRunAreMergedAtBothLevels() throws Exception {
    LocomoReport r =
        LocomoBench.run(
            new Options(LocomoReaderTest.fixture(), Mode.RAW, 10, Fusion.RRF, 0, work),
            new HashEmbedder(),
            LocomoBench.Hooks.none());
    LocomoReport merged =
        r.withMetrics(Map.of("j", 0.6, "f1", 0.4), Map.of("2", Map.of("j", 0.5), "9", Map.of()))
            .withBaselineMetrics("rag-512-k2", Map.of("j", 0.3));
    // beside the run's own evidence_recall_store (raw turns keep every turn) and
    // context_tokens_prompt
    assertThat(merged.overall().extra().get("context_tokens_prompt"))
        .isGreaterThan(r.overall().contextTokensMean());
    assertThat(ownMetrics(merged.overall().extra()))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("j", 0.6, "f1", 0.4, "evidence_recall_store", 1.0));
    assertThat(ownMetrics(merged.byCategory().get("2").extra()))
        .containsExactlyInAnyOrderEntriesOf(Map.of("j", 0.5, "evidence_recall_store", 1.0));
    assertThat(ownMetrics(merged.byCategory().get("1").extra()))
        .containsExactlyInAnyOrderEntriesOf(Map.of("evidence_recall_store", 1.0));
    assertThat(merged.byCategory()).containsOnlyKeys("1", "2", "4");
    JsonNode json = new ObjectMapper().readTree(merged.toJson());
    assertThat(json.at("/overall/j").asDouble()).isEqualTo(0.6);
    assertThat(json.at("/by_category/2/j").asDouble()).isEqualTo(0.5);
    int rag512k2 = BASELINES.indexOf("rag-512-k2");
    assertThat(json.get("baselines").get(rag512k2).get("name").asText()).isEqualTo("rag-512-k2");
    assertThat(json.get("baselines").get(rag512k2).get("j").asDouble()).isEqualTo(0.3);
    assertThat(json.get("baselines").get(rag512k2 - 1).has("j")).isFalse();
    assertThat(merged.overall().evidenceRecall()).isEqualTo(r.overall().evidenceRecall());
  }

  @Test
  void evidenceMetricsSkipQuestionsWithoutEvidenceAndExtrasAverageWhereReported() {
    LocomoReport.Scores s =
        ReportBuilder.scores(
            List.of(
                new QuestionScore(true, 0.5, 1, 1, 10, Map.of("j", 1.0)),
                new QuestionScore(false, 1, 1, 0, 20, Map.of()),
                new QuestionScore(true, 0, 0, 0.5, 30, Map.of("j", 0.0, "f1", 0.5))));
    assertThat(s.questions()).isEqualTo(3);
    assertThat(s.evidenceQuestions()).isEqualTo(2);
    assertThat(s.evidenceRecall()).isEqualTo(0.25);
    assertThat(s.hit()).isEqualTo(0.5);
    assertThat(s.answerTokenRecall()).isCloseTo(0.5, within(1e-12));
    assertThat(s.contextTokensMean()).isEqualTo(20.0);
    assertThat(s.extra()).containsExactlyInAnyOrderEntriesOf(Map.of("j", 0.5, "f1", 0.5));
  }

  @Test
  void chartIsWellFormedSvgWithOneSeriesPerRunAndBaseline() throws Exception {
    Options o = new Options(LocomoReaderTest.fixture(), Mode.RAW, 10, Fusion.RRF, 0, work);
    LocomoReport raw = LocomoBench.run(o, new HashEmbedder(), LocomoBench.Hooks.none());
    LocomoReport extract =
        LocomoBench.run(
            new Options(LocomoReaderTest.fixture(), Mode.EXTRACT, 10, Fusion.RRF, 0, work)
                .withBaselines(false),
            new HashEmbedder(),
            LocomoBench.Hooks.none());
    Document one = parse(raw.toSvg());
    assertThat(one.getDocumentElement().getTagName()).isEqualTo("svg");
    List<String> names = seriesNames(one);
    assertThat(names).hasSize(1 + BASELINES.size()).startsWith("engram raw/conversation k=10");
    assertThat(names.subList(1, names.size())).containsExactlyElementsOf(BASELINES);
    List<String> both = seriesNames(parse(LocomoChart.svg(List.of(raw, extract))));
    assertThat(both)
        .hasSize(2 + BASELINES.size())
        .startsWith("engram raw/conversation k=10", "engram extract/conversation k=10");
    assertThat(parse(LocomoChart.svg(List.of(extract))).getElementsByTagName("g").getLength())
        .isEqualTo(1);
    // A written report reads back equal (the CLI's --compare draws earlier runs from their JSON).
    Path file = work.resolve("raw.json");
    raw.writeJson(file);
    assertThat(LocomoReport.readJson(file)).isEqualTo(raw);
    // with the observer's metrics (an answer judge's, say), which are flattened into the scores'
    // JSON
    LocomoReport judged =
        raw.withMetrics(Map.of("j", 0.75, "f1", 0.5), Map.of("1", Map.of("j", 0.5)))
            .withBaselineMetrics(raw.baselines().get(0).name(), Map.of("j", 0.25));
    judged.writeJson(file);
    assertThat(LocomoReport.readJson(file)).isEqualTo(judged);
    assertThat(LocomoReport.readJson(file).overall().extra())
        .containsEntry("j", 0.75)
        .containsEntry("f1", 0.5);
  }

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<String> seriesNames(Document d) {
    List<String> out = new ArrayList<>();
    NodeList groups = d.getElementsByTagName("g");
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      assertThat(g.getAttribute("class")).isEqualTo("series");
      assertThat(g.getElementsByTagName("circle").getLength()).isEqualTo(1);
      assertThat(g.getElementsByTagName("text").item(0).getTextContent())
          .isEqualTo(g.getAttribute("data-name"));
      out.add(g.getAttribute("data-name"));
    }
    return out;
  }

  private static List<String> fields(JsonNode node) {
    List<String> out = new ArrayList<>();
    Iterator<String> it = node.fieldNames();
    it.forEachRemaining(out::add);
    return out;
  }

  /** The metrics without {@code context_tokens_prompt}, which every run reports. */
  private static Map<String, Double> ownMetrics(Map<String, Double> extra) {
    Map<String, Double> out = new java.util.HashMap<>(extra);
    out.remove("context_tokens_prompt");
    return out;
  }
}

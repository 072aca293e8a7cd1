package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.pipeline.LlmReranker;
import dev.engram.pipeline.ModelCaller;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.Reranker;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rerank} in a search on the real embedded store (SQLite and Lucene), with the LLM reranker
 * over a scripted model (no LLM runs here): the reranker sees more than top-k fused hits, its order
 * wins, its scores are reported, a request without {@code rerank} never calls it, and a failing
 * reranker leaves the fused order.
 */
class ScriptedRerankSearchTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Pattern LINE = Pattern.compile("(?m)^\\[(\\d+)] (.*)$");
  private static final List<String> TEXTS =
      List.of(
          "Alice went hiking in the Alps last summer",
          "Alice likes hiking with her dog",
          "Alice bought new hiking boots",
          "Alice is planning a hiking trip to Norway",
          "Alice lives in Paris since 2019");

  @TempDir Path dir;

  private final ScriptedLanguageModel model = new ScriptedLanguageModel();
  private Memory memory;

  @BeforeEach
  void open() {
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .reranker(
                new LlmReranker(
                    new ModelCaller(model, new RetryPolicy(2, Duration.ZERO, Duration.ZERO, 2)),
                    30))
            .build();
    for (String t : TEXTS) {
      memory.add(AddRequest.builder(ALICE).user(t).infer(false).build());
    }
  }

  @AfterEach
  void close() {
    memory.close();
  }

  /** Scores 1.0 the candidates whose text contains {@code word}, 0.1 the others. */
  private static String favour(LanguageModel.Prompt p, String word) {
    Matcher m = LINE.matcher(p.user());
    List<String> entries = new ArrayList<>();
    while (m.find()) {
      entries.add(
          "{\"id\": "
              + m.group(1)
              + ", \"score\": "
              + (m.group(2).contains(word) ? "1.0" : "0.1")
              + "}");
    }
    return "{\"scores\": [" + String.join(", ", entries) + "]}";
  }

  private SearchRequest.Builder hiking() {
    return SearchRequest.builder(ALICE, "hiking trips").topK(2).explain(true);
  }

  private static List<String> texts(List<SearchHit> hits) {
    return hits.stream().map(h -> h.memory().text()).toList();
  }

  @Test
  void theRerankerOrderWinsOverMoreThanTopKCandidates() {
    List<SearchHit> fused = memory.search(hiking().topK(5).build()).hits();
    assertThat(texts(fused).indexOf("Alice lives in Paris since 2019")).isGreaterThanOrEqualTo(2);
    model.thenAnswer(p -> favour(p, "Paris"));

    List<SearchHit> hits = memory.search(hiking().rerank(true).build()).hits();

    assertThat(hits).hasSize(2);
    assertThat(hits.get(0).memory().text()).isEqualTo("Alice lives in Paris since 2019");
    assertThat(hits.get(0).details().rerank()).isEqualTo(1.0);
    assertThat(hits.get(1).details().rerank()).isEqualTo(0.1);
    // ties keep the relevance order, and every hit keeps the relevance score it has without
    // reranking
    assertThat(hits.get(1).memory().id()).isEqualTo(fused.get(0).memory().id());
    for (SearchHit h : hits) {
      SearchHit plain =
          fused.stream()
              .filter(f -> f.memory().id().equals(h.memory().id()))
              .findFirst()
              .orElseThrow();
      assertThat(h.score()).isEqualTo(plain.score());
    }
    assertThat(LINE.matcher(model.prompts().get(0).user()).results().count())
        .isEqualTo(TEXTS.size());
  }

  @Test
  void withoutRerankTheRerankerIsNotCalledAndNoRerankScoreIsReported() {
    List<SearchHit> hits = memory.search(hiking().build()).hits();

    assertThat(model.calls()).isZero();
    assertThat(hits).hasSize(2).allSatisfy(h -> assertThat(h.details().rerank()).isNaN());
  }

  @Test
  void aFailingRerankerGivesTheSearchWithoutRerankingAndNoRerankScores() {
    List<String> fused = texts(memory.search(hiking().build()).hits());
    model.thenAnswer("no idea").thenAnswer("{\"verdict\": \"all good\"}");

    List<SearchHit> hits = memory.search(hiking().rerank(true).build()).hits();

    assertThat(model.calls()).isEqualTo(2);
    assertThat(texts(hits)).isEqualTo(fused);
    assertThat(hits).allSatisfy(h -> assertThat(h.details().rerank()).isNaN());
  }

  @Test
  void theThresholdStillGatesTheFusedScoreBeforeReranking() {
    List<SearchHit> all = memory.search(hiking().topK(5).build()).hits();
    double cut = all.get(1).score();
    model.thenAnswer(p -> favour(p, "Paris"));

    List<SearchHit> hits = memory.search(hiking().threshold(cut).rerank(true).build()).hits();

    assertThat(hits).allSatisfy(h -> assertThat(h.score()).isGreaterThanOrEqualTo(cut));
    assertThat(LINE.matcher(model.prompts().get(0).user()).results().count())
        .isEqualTo(all.stream().filter(h -> h.score() >= cut).count());
  }

  @Test
  void rerankWithoutAConfiguredRerankerKeepsTheFusedOrder() throws Exception {
    memory.close();
    memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .reranker(Reranker.none())
            .build();
    List<String> fused = texts(memory.search(hiking().build()).hits());

    List<SearchHit> hits = memory.search(hiking().rerank(true).build()).hits();

    assertThat(texts(hits)).isEqualTo(fused);
    assertThat(hits).allSatisfy(h -> assertThat(h.details().rerank()).isNaN());
  }
}

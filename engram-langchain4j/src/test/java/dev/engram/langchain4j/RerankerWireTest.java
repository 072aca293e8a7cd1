package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Hashes;
import dev.engram.LanguageModelException;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.RerankerException;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.spi.Reranker;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rerankers over the hosted rerank APIs (Cohere v2, Jina, Voyage) against a stub on 127.0.0.1
 * that speaks their wire formats: the request each sends, the scores read back in candidate order,
 * failures typed and without the key, and an {@code engram.yaml} reranker reordering a search on
 * the real embedded store.
 */
class RerankerWireTest extends WireTestCase {
  private static final Instant T = Instant.parse("2024-05-01T10:00:00Z");
  private static final List<MemoryItem> ITEMS =
      List.of(
          item("Caroline adopted a puppy."),
          item("Melanie paints sunsets."),
          item("Caroline lives in Boston."));

  @TempDir Path dir;

  private static MemoryItem item(String text) {
    return new MemoryItem(
        Hashes.md5(text),
        text,
        Hashes.md5(text),
        Map.of(),
        "caroline",
        null,
        null,
        null,
        null,
        T,
        T,
        null,
        List.of(),
        null);
  }

  private Reranker reranker(RerankApi api, String path) {
    return ScoringModelReranker.of(
        api,
        ModelSettings.builder(api.defaultModel())
            .baseUrl(stub.url(path))
            .apiKey(Fixtures.KEY)
            .build());
  }

  @Test
  void cohereSendsV2RerankAndReadsScoresBackInCandidateOrder() {
    stub.reply(
        200,
        "{\"id\":\"07734bd2-2473-4f07-94e1-0d9f0e6843cf\",\"results\":["
            + "{\"index\":2,\"relevance_score\":0.91},{\"index\":0,\"relevance_score\":0.12},"
            + "{\"index\":1,\"relevance_score\":0.003}],"
            + "\"meta\":{\"api_version\":{\"version\":\"2\"},\"billed_units\":{\"search_units\":1}}}");

    assertThat(reranker(RerankApi.COHERE, "").scores("Where does Caroline live?", ITEMS))
        .containsExactly(0.12, 0.003, 0.91);

    StubServer.Recorded r = stub.requests().get(0);
    assertThat(r.method()).isEqualTo("POST");
    assertThat(r.path()).isEqualTo("/v2/rerank");
    assertThat(r.header("Authorization")).isEqualTo("Bearer " + Fixtures.KEY);
    assertThat(r.body())
        .isEqualTo(
            "{\"model\":\"rerank-v3.5\",\"query\":\"Where does Caroline live?\","
                + "\"documents\":[\"Caroline adopted a puppy.\",\"Melanie paints sunsets.\",\"Caroline lives in Boston.\"],"
                + "\"top_n\":3}");
  }

  @Test
  void jinaSendsV1RerankWithoutDocumentsBack() {
    stub.reply(
        200,
        "{\"model\":\"jina-reranker-v2-base-multilingual\",\"usage\":{\"total_tokens\":38},"
            + "\"results\":[{\"index\":1,\"relevance_score\":0.7},{\"index\":2,\"relevance_score\":0.4},"
            + "{\"index\":0,\"relevance_score\":0.05}]}");

    assertThat(reranker(RerankApi.JINA, "").scores("Who paints?", ITEMS))
        .containsExactly(0.05, 0.7, 0.4);

    StubServer.Recorded r = stub.requests().get(0);
    assertThat(r.path()).isEqualTo("/v1/rerank");
    assertThat(r.json().get("model").asText()).isEqualTo("jina-reranker-v2-base-multilingual");
    assertThat(r.json().get("top_n").asInt()).isEqualTo(3);
    assertThat(r.json().get("return_documents").asBoolean()).isFalse();
    assertThat(r.json().get("documents")).hasSize(3);
  }

  @Test
  void voyageTakesABaseUrlWithItsVersionAndAnswersInData() {
    stub.reply(
        200,
        "{\"object\":\"list\",\"data\":[{\"relevance_score\":0.6,\"index\":0},"
            + "{\"relevance_score\":0.2,\"index\":2},{\"relevance_score\":0.1,\"index\":1}],"
            + "\"model\":\"rerank-2.5\",\"usage\":{\"total_tokens\":26}}");

    assertThat(reranker(RerankApi.VOYAGE, "/v1").scores("Who has a dog?", ITEMS))
        .containsExactly(0.6, 0.1, 0.2);

    StubServer.Recorded r = stub.requests().get(0);
    assertThat(r.path()).isEqualTo("/v1/rerank");
    assertThat(r.json().get("model").asText()).isEqualTo("rerank-2.5");
    assertThat(r.json().get("top_k").asInt()).isEqualTo(3);
    assertThat(r.json().has("top_n")).isFalse();
    assertThat(r.json().get("query").asText()).isEqualTo("Who has a dog?");
  }

  @Test
  void aRefusedKeyIsATypedFailureThatNeverShowsTheKey() {
    stub.reply(401, "{\"message\":\"invalid api token " + Fixtures.KEY + "\"}");

    assertThatThrownBy(() -> reranker(RerankApi.COHERE, "").scores("q", ITEMS))
        .isInstanceOf(RerankerException.class)
        .hasMessageContaining("cohere/rerank-v3.5", "HTTP 401", "invalid api token ***")
        .satisfies(t -> assertThat(ErrorMappingWireTest.chainText(t)).doesNotContain(Fixtures.KEY))
        .cause()
        .isInstanceOf(LanguageModelException.class)
        .satisfies(
            c ->
                assertThat(((LanguageModelException) c).kind())
                    .isEqualTo(LanguageModelException.Kind.AUTHENTICATION));
  }

  @Test
  void rateLimitsAndIncompleteRepliesAreTyped() {
    stub.reply(429, "{\"message\":\"too many requests\"}");
    stub.reply(200, "{\"results\":[{\"index\":0,\"relevance_score\":0.5}]}");
    Reranker r = reranker(RerankApi.JINA, "");

    assertThatThrownBy(() -> r.scores("q", ITEMS))
        .isInstanceOf(RerankerException.class)
        .cause()
        .satisfies(
            c ->
                assertThat(((LanguageModelException) c).kind())
                    .isEqualTo(LanguageModelException.Kind.RATE_LIMITED));
    assertThatThrownBy(() -> r.scores("q", ITEMS))
        .isInstanceOf(RerankerException.class)
        .hasMessageContaining("scores 1 of 3 documents");
  }

  @Test
  void theRerankerOfEngramYamlReordersASearchOnTheEmbeddedStore() {
    String yaml =
        "reranker:\n  provider: cohere\n  base_url: "
            + stub.url("")
            + "\n  api_key_env: MY_COHERE_KEY\n"
            + "  candidates: 5\n";
    Map<String, String> env = Map.of("MY_COHERE_KEY", Fixtures.KEY);
    EngramSettings settings = SettingsLoader.parse(yaml, "engram.yaml", dir, env);
    assertThat(settings.reranker())
        .hasValueSatisfying(
            r -> {
              assertThat(r.model()).isEqualTo("rerank-v3.5");
              assertThat(r.candidates()).isEqualTo(5);
              assertThat(r.toString()).doesNotContain(Fixtures.KEY);
            });
    Scope scope = Scope.user("caroline");
    try (Memory memory =
        PipelineAssembly.configure(
                Engram.builder()
                    .storage(EmbeddedStorage.open(dir.resolve("data"), 64))
                    .embedder(new HashEmbedder()),
                settings,
                env)
            .build()) {
      memory.add(
          AddRequest.builder(scope)
              .user("Caroline adopted a puppy named Max")
              .infer(false)
              .build());
      memory.add(
          AddRequest.builder(scope)
              .user("Caroline took the puppy to the beach")
              .infer(false)
              .build());
      SearchRequest.Builder q = SearchRequest.builder(scope, "puppy").explain(true);
      List<SearchHit> fused = memory.search(q.build()).hits();
      assertThat(fused).hasSize(2);
      stub.reply(
          200,
          "{\"id\":\"x\",\"results\":[{\"index\":1,\"relevance_score\":0.8},"
              + "{\"index\":0,\"relevance_score\":0.3}]}");

      List<SearchHit> reranked = memory.search(q.rerank(true).build()).hits();

      assertThat(reranked)
          .extracting(h -> h.memory().id())
          .containsExactly(fused.get(1).memory().id(), fused.get(0).memory().id());
      assertThat(reranked).extracting(h -> h.details().rerank()).containsExactly(0.8, 0.3);
      assertThat(stub.requests()).hasSize(1);
      assertThat(stub.requests().get(0).json().get("documents"))
          .extracting(JsonNode::asText)
          .containsExactly(fused.get(0).memory().text(), fused.get(1).memory().text());
      assertThat(stub.requests().get(0).json().get("query").asText()).isEqualTo("puppy");
    }
  }

  @Test
  void settingsNeedAKeyForPublicEndpointsAndAModelForLlm() {
    assertThatThrownBy(
            () ->
                SettingsLoader.parse(
                    "reranker:\n  provider: voyage\n", "engram.yaml", dir, Map.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("VOYAGE_API_KEY");
    assertThatThrownBy(
            () ->
                SettingsLoader.parse("reranker:\n  provider: llm\n", "engram.yaml", dir, Map.of()))
        .isInstanceOf(ValidationException.class)
        .satisfies(
            e -> assertThat(((ValidationException) e).field()).isEqualTo("reranker.provider"));
    assertThatThrownBy(
            () ->
                SettingsLoader.parse(
                    "reranker:\n  provider: cohere\n  api_key: abc\n",
                    "engram.yaml",
                    dir,
                    Map.of()))
        .isInstanceOf(ValidationException.class);
    assertThatThrownBy(
            () ->
                SettingsLoader.parse("reranker:\n  provider: bge\n", "engram.yaml", dir, Map.of()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("reranker.provider");
    EngramSettings llm =
        SettingsLoader.parse(
            "llm:\n  provider: ollama\nreranker:\n  provider: llm\n" + "  candidates: 12\n",
            "engram.yaml",
            dir,
            Map.of());
    assertThat(llm.reranker().orElseThrow().candidates()).isEqualTo(12);
    assertThat(
            Providers.reranker(
                llm.reranker().orElseThrow(),
                java.util.Optional.of(PipelineAssembly.caller(llm, Map.of())),
                Map.of()))
        .isInstanceOf(dev.engram.pipeline.LlmReranker.class)
        .satisfies(r -> assertThat(r.candidates()).isEqualTo(12));
  }
}

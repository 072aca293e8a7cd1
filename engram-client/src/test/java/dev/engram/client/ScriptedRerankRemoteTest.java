package dev.engram.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.pipeline.LlmReranker;
import dev.engram.pipeline.ModelCaller;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rerank} through the REST API: the client sends it, the server's memory reranks (LLM
 * reranker over a scripted model; no LLM runs here), and the order and {@code rerank_score} come
 * back as the embedded memory gives them; a search without it is not reranked.
 */
class ScriptedRerankRemoteTest {
  private static final Pattern LINE = Pattern.compile("(?m)^\\[(\\d+)] (.*)$");

  @TempDir Path dir;

  @Test
  void remoteRerankGivesTheEmbeddedOrderAndScores() {
    ScriptedLanguageModel model =
        new ScriptedLanguageModel()
            .otherwise(
                p -> {
                  Matcher m = LINE.matcher(p.user());
                  List<String> entries = new ArrayList<>();
                  while (m.find()) {
                    entries.add(
                        "{\"id\": "
                            + m.group(1)
                            + ", \"score\": "
                            + (m.group(2).contains("bakery") ? 0.9 : 0.2)
                            + "}");
                  }
                  return "{\"scores\": [" + String.join(", ", entries) + "]}";
                });
    HashEmbedder embedder = new HashEmbedder();
    Scope alice = Scope.user("alice");
    try (ServedMemory s =
        new ServedMemory(
            Engram.builder()
                .storage(EmbeddedStorage.open(dir, embedder.dimension()))
                .embedder(embedder)
                .reranker(new LlmReranker(new ModelCaller(model, RetryPolicy.none()), 10))
                .build(),
            dir,
            Clock.systemUTC())) {
      for (String t :
          List.of(
              "Alice moved to Lisbon",
              "Alice moved her bakery to a new street",
              "Alice moved the piano",
              "Alice moved in with Bob")) {
        s.add(AddRequest.builder(alice).user(t).infer(false).build());
      }
      SearchRequest.Builder q =
          SearchRequest.builder(alice, "where did Alice move").topK(2).explain(true);

      List<SearchHit> plain = s.remote.search(q.build()).hits();
      assertThat(model.calls()).isZero();
      assertThat(plain).allSatisfy(h -> assertThat(h.details().rerank()).isNaN());

      List<SearchHit> remote = s.remote.search(q.rerank(true).build()).hits();
      List<SearchHit> embedded = s.embedded.search(q.rerank(true).build()).hits();

      assertThat(model.calls()).isEqualTo(2);
      assertThat(remote.get(0).memory().text()).isEqualTo("Alice moved her bakery to a new street");
      assertThat(remote)
          .extracting(h -> h.memory().id())
          .containsExactlyElementsOf(embedded.stream().map(h -> h.memory().id()).toList());
      assertThat(remote).extracting(h -> h.details().rerank()).containsExactly(0.9, 0.2);
      assertThat(remote)
          .extracting(SearchHit::score)
          .containsExactlyElementsOf(embedded.stream().map(SearchHit::score).toList());
    }
  }
}

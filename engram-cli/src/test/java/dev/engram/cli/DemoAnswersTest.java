package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.onnx.OnnxEmbedders;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's five questions on the demo's store (the real bge-small embedder in process and the
 * offline extractor, as {@code engram demo} runs them): each shows an answer among its three hits
 * at the default threshold, puts one first and keeps one at threshold 0.5 ("as likely relevant as
 * not" on the calibrated scale). "Where does Maya live?" put "Maya is allergic to cats" first until
 * the keyword search took Maya's name, in 10 of the 17 memories, for the common term it is ({@code
 * CommonTerms}, from 10 memories on): the memories that hold only her name no longer outrank the
 * Lisbon memory, the nearest by its embedding (docs/benchmarks/log.md, "Off-topic by the rarity of
 * the query's words"). A question whose answer is not first is listed below, with why.
 */
class DemoAnswersTest {
  /** Questions whose answer is not yet first. */
  private static final Set<String> NOT_FIRST = Set.of();

  /** Questions whose answers score under 0.5. */
  private static final Set<String> UNDER_ONE_HALF = Set.of();

  @TempDir Path dir;

  @Test
  void eachQuestionPutsItsAnswerFirstAndKeepsItAtOneHalf() {
    Scope scope = Scope.user(DemoConversation.USER_ID);
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.at(dir))
            .embedder(OnnxEmbedders.defaultEmbedder())
            .build()) {
      for (List<Message> session : DemoConversation.sessions()) {
        memory.add(
            AddRequest.builder(scope)
                .messages(session)
                .timestamp(session.get(0).timestamp())
                .build());
      }
      for (int i = 0; i < DemoConversation.QUERIES.size(); i++) {
        String q = DemoConversation.QUERIES.get(i);
        List<String> answer = DemoConversation.ANSWERS.get(i);
        List<SearchHit> hits =
            memory.search(SearchRequest.builder(scope, q).topK(3).build()).hits();
        assertThat(hits).as(q).anyMatch(h -> answers(h, answer));
        assertThat(answers(hits.get(0), answer))
            .as(q + " first: " + hits.get(0))
            .isEqualTo(!NOT_FIRST.contains(q));
        List<SearchHit> kept =
            memory.search(SearchRequest.builder(scope, q).topK(3).threshold(0.5).build()).hits();
        assertThat(kept.stream().anyMatch(h -> answers(h, answer)))
            .as(q + " at 0.5: " + kept)
            .isEqualTo(!UNDER_ONE_HALF.contains(q));
      }
    }
  }

  private static boolean answers(SearchHit hit, List<String> words) {
    String text = hit.memory().text().toLowerCase(Locale.ROOT);
    return words.stream().anyMatch(text::contains);
  }
}

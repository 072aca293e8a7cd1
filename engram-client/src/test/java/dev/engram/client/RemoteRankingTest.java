package dev.engram.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ranking steps through the REST API: the client sends a chosen {@link Ranking} as {@code
 * ranking}, the server searches with it, and the hits are those of the embedded memory with the
 * same ranking.
 */
class RemoteRankingTest {
  @TempDir Path dir;

  @Test
  void theChosenRankingTravelsAndGivesTheEmbeddedResult() {
    HashEmbedder embedder = new HashEmbedder();
    Scope chat = Scope.run("chat");
    try (ServedMemory s =
        new ServedMemory(
            Engram.builder()
                .storage(EmbeddedStorage.open(dir, embedder.dimension()))
                .embedder(embedder)
                .build(),
            dir,
            Clock.systemUTC())) {
      say(s, "a:1", "Alice went hiking in the hills", "2023-05-20T09:00:00Z");
      say(s, "b:1", "Alice went hiking in the hills with Bob", "2023-08-12T09:00:00Z");
      SearchRequest.Builder q =
          SearchRequest.builder(chat, "Where did Alice go hiking in August 2023?").topK(1);

      for (Ranking r :
          List.of(Ranking.NONE, Ranking.NONE.withEventDates(true), Ranking.DEFAULT, Ranking.ALL)) {
        assertThat(sources(s.remote.search(q.ranking(r).build()).hits()))
            .as(r.spec())
            .isEqualTo(sources(s.embedded.search(q.ranking(r).build()).hits()));
      }
      // the step decides here, so a ranking lost on the way would show
      assertThat(
              sources(s.remote.search(q.ranking(Ranking.NONE.withEventDates(true)).build()).hits()))
          .containsExactly("b:1");
      assertThat(sources(s.remote.search(q.ranking(Ranking.NONE).build()).hits()))
          .containsExactly("a:1");
    }
  }

  private static void say(ServedMemory s, String sourceId, String text, String at) {
    Instant t = Instant.parse(at);
    s.embedded.add(
        AddRequest.builder(Scope.run("chat"))
            .message(new Message(Role.USER, text, "speaker", t, sourceId))
            .infer(false)
            .timestamp(t)
            .build());
  }

  private static List<String> sources(List<SearchHit> hits) {
    return hits.stream().flatMap(h -> h.memory().sourceIds().stream()).toList();
  }
}

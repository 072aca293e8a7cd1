package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.testing.TopicEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Context embeddings on the embedded storage: kept in the record (SQLite) and searched in the Lucene index, so an
 * index rebuilt from the record after it was lost still finds a memory through the question before it when the
 * query shares no word with either (the embedder is a synonym-aware fake, {@link TopicEmbedder}).
 */
class ContextEmbeddingRebuildTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final TopicEmbedder EMBEDDER = new TopicEmbedder(Map.of("holiday", 0, "vacation", 0,
      "adoption", 1, "agencies", 1, "weather", 2, "cat", 3), 6);

  @TempDir
  Path dir;

  @Test
  void aRebuiltIndexStillSearchesTheContextEmbeddings() throws Exception {
    String answer;
    try (Memory memory = open()) {
      say(memory, "d1:1", "the weather was grey and wet");
      say(memory, "d1:2", "What are your holiday plans?");
      answer = say(memory, "d1:3", "Researching adoption agencies");
      say(memory, "d1:4", "the cat sleeps on the sofa all day");
      assertThat(fused(memory, Ranking.NONE.withContext(true), answer))
          .isGreaterThan(fused(memory, Ranking.NONE, answer));
    }
    EmbeddedMemoryContractTest.deleteRecursively(dir.resolve("index"));
    assertThat(Files.exists(dir.resolve("index"))).isFalse();
    try (Memory memory = open()) {
      double without = fused(memory, Ranking.NONE, answer);
      double with = fused(memory, Ranking.NONE.withContext(true), answer);
      assertThat(with).as("the context embedding still finds the answer after the rebuild").isGreaterThan(without);
      assertThat(memory.search(SearchRequest.builder(CHAT, "vacation").topK(2).build()).hits())
          .extracting(h -> h.memory().id()).contains(answer);
    }
  }

  private Memory open() {
    return Engram.builder().storage(EmbeddedStorage.open(dir, EMBEDDER.dimension())).embedder(EMBEDDER)
        .contextEmbeddings(true).build();
  }

  private static String say(Memory memory, String sourceId, String text) {
    return memory.add(AddRequest.builder(CHAT).message(new Message(Role.USER, text, "ana", null, sourceId))
        .infer(false).build()).events().get(0).id();
  }

  /** The answer's fused score for "vacation", a word in no text and no context. */
  private static double fused(Memory memory, Ranking ranking, String id) {
    for (SearchHit h : memory.search(SearchRequest.builder(CHAT, "vacation").topK(10).explain(true)
        .ranking(ranking).build()).hits()) {
      if (h.memory().id().equals(id)) {
        return h.details().fused();
      }
    }
    return 0;
  }
}

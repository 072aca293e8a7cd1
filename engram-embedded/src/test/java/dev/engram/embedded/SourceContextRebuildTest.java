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
import dev.engram.testing.HashEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory's source context lives in the record (SQLite), not only in the index: an index rebuilt from the record
 * after it was lost still finds the memory through the words of the message before it.
 */
class SourceContextRebuildTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final String QUESTION = "summer plans";

  @TempDir
  Path dir;

  @Test
  void aRebuiltIndexStillSearchesTheSourceContexts() throws Exception {
    String answer;
    try (Memory memory = open()) {
      say(memory, "d1:1", "the weather was grey and wet");
      say(memory, "d1:2", "What are your plans for the summer?");
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
      assertThat(with).as("the context list still finds the answer after the rebuild").isGreaterThan(without);
      assertThat(memory.exportRecords(dev.engram.ExportRequest.of(CHAT))
          .filter(r -> r.id().equals(answer)).findFirst().orElseThrow().context())
          .isEqualTo("What are your plans for the summer?\nResearching adoption agencies");
    }
  }

  private Memory open() {
    return Engram.builder().storage(EmbeddedStorage.open(dir, 64)).embedder(new HashEmbedder()).build();
  }

  private static String say(Memory memory, String sourceId, String text) {
    return memory.add(AddRequest.builder(CHAT).message(new Message(Role.USER, text, "ana", null, sourceId))
        .infer(false).build()).events().get(0).id();
  }

  private static double fused(Memory memory, Ranking ranking, String id) {
    for (SearchHit h : memory.search(SearchRequest.builder(CHAT, QUESTION).topK(10).explain(true)
        .ranking(ranking).build()).hits()) {
      if (h.memory().id().equals(id)) {
        return h.details().fused();
      }
    }
    return 0;
  }
}

package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The conversation the context rebuild tests hold: four verbatim turns in one scope, the third the
 * answer to the question in the second, so that a query that shares no word with the answer finds
 * it only through its source context; and the steps around it (the index deleted, the context
 * step's gain).
 */
final class ContextConversation {
  static final Scope CHAT = Scope.user("chat");

  private ContextConversation() {}

  /** Adds the four turns, {@code question} second; returns the id of the answer's memory. */
  static String hold(Memory memory, String question) {
    say(memory, "d1:1", "the weather was grey and wet");
    say(memory, "d1:2", question);
    String answer = say(memory, "d1:3", "Researching adoption agencies");
    say(memory, "d1:4", "the cat sleeps on the sofa all day");
    return answer;
  }

  /** Deletes the index under {@code dir}, so the next open rebuilds it from the record. */
  static void deleteIndex(Path dir) {
    EmbeddedMemoryContractTest.deleteRecursively(dir.resolve("index"));
    assertThat(Files.exists(dir.resolve("index"))).isFalse();
  }

  /** Checks that the context step raises the answer's fused score for {@code query}. */
  static void assertContextRaises(Memory memory, String query, String answer, String why) {
    assertThat(fused(memory, query, Ranking.NONE.withContext(true), answer))
        .as(why)
        .isGreaterThan(fused(memory, query, Ranking.NONE, answer));
  }

  private static String say(Memory memory, String sourceId, String text) {
    return memory
        .add(
            AddRequest.builder(CHAT)
                .message(new Message(Role.USER, text, "ana", null, sourceId))
                .infer(false)
                .build())
        .events()
        .get(0)
        .id();
  }

  /**
   * The fused score of memory {@code id} for {@code query} under {@code ranking}; 0 if it is not
   * among the top 10.
   */
  private static double fused(Memory memory, String query, Ranking ranking, String id) {
    for (SearchHit h :
        memory
            .search(
                SearchRequest.builder(CHAT, query).topK(10).explain(true).ranking(ranking).build())
            .hits()) {
      if (h.memory().id().equals(id)) {
        return h.details().fused();
      }
    }
    return 0;
  }
}

package dev.engram.embedded;

import static dev.engram.embedded.ContextConversation.CHAT;
import static dev.engram.embedded.ContextConversation.assertContextRaises;
import static dev.engram.embedded.ContextConversation.deleteIndex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.ExportRequest;
import dev.engram.Memory;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory's source context lives in the record (SQLite), not only in the index: an index rebuilt
 * from the record after it was lost still finds the memory through the words of the message before
 * it.
 */
class SourceContextRebuildTest {
  private static final String QUESTION = "What are your plans for the summer?";

  /** Words of the question before the answer, none of the answer's. */
  private static final String QUERY = "summer plans";

  @TempDir Path dir;

  @Test
  void aRebuiltIndexStillSearchesTheSourceContexts() throws Exception {
    String answer;
    try (Memory memory = open()) {
      answer = ContextConversation.hold(memory, QUESTION);
      assertContextRaises(memory, QUERY, answer, "the context list finds the answer");
    }
    deleteIndex(dir);
    try (Memory memory = open()) {
      assertContextRaises(
          memory, QUERY, answer, "the context list still finds the answer after the rebuild");
      assertThat(
              memory
                  .exportRecords(ExportRequest.of(CHAT))
                  .filter(r -> r.id().equals(answer))
                  .findFirst()
                  .orElseThrow()
                  .context())
          .isEqualTo(QUESTION);
    }
  }

  private Memory open() {
    return Engram.builder()
        .storage(EmbeddedStorage.open(dir, 64))
        .embedder(new HashEmbedder())
        .build();
  }
}

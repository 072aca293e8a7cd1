package dev.engram.embedded;

import static dev.engram.embedded.ContextConversation.CHAT;
import static dev.engram.embedded.ContextConversation.assertContextRaises;
import static dev.engram.embedded.ContextConversation.deleteIndex;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.SearchRequest;
import dev.engram.testing.TopicEmbedder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Context embeddings on the embedded storage: kept in the record (SQLite) and searched in the
 * Lucene index, so an index rebuilt from the record after it was lost still finds a memory through
 * the question before it when the query shares no word with either (the embedder is a synonym-aware
 * fake, {@link TopicEmbedder}).
 */
class ContextEmbeddingRebuildTest {
  private static final TopicEmbedder EMBEDDER =
      new TopicEmbedder(
          Map.of("holiday", 0, "vacation", 0, "adoption", 1, "agencies", 1, "weather", 2, "cat", 3),
          6);

  /** A word in no text and no context. */
  private static final String QUERY = "vacation";

  @TempDir Path dir;

  @Test
  void aRebuiltIndexStillSearchesTheContextEmbeddings() throws Exception {
    String answer;
    try (Memory memory = open()) {
      answer = ContextConversation.hold(memory, "What are your holiday plans?");
      assertContextRaises(memory, QUERY, answer, "the context embedding finds the answer");
    }
    deleteIndex(dir);
    try (Memory memory = open()) {
      assertContextRaises(
          memory, QUERY, answer, "the context embedding still finds the answer after the rebuild");
      assertThat(memory.search(SearchRequest.builder(CHAT, QUERY).topK(2).build()).hits())
          .extracting(h -> h.memory().id())
          .contains(answer);
    }
  }

  private Memory open() {
    return Engram.builder()
        .storage(EmbeddedStorage.open(dir, EMBEDDER.dimension()))
        .embedder(EMBEDDER)
        .contextEmbeddings(true)
        .build();
  }
}

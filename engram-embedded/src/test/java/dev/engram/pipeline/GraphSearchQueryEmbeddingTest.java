package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.spi.Embedder;
import dev.engram.spi.ForwardingEmbedder;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search with graph memory on embeds its query once, for both the memory and the graph half (a
 * query embedding is most of a search's time with the ONNX embedder). The counting embedder wraps
 * the hash test embedder (a fake).
 */
class GraphSearchQueryEmbeddingTest {
  @TempDir Path dir;

  @Test
  void theQueryIsEmbeddedOnceForMemoriesAndRelations() {
    AtomicInteger queries = new AtomicInteger();
    Embedder counting =
        new ForwardingEmbedder(new HashEmbedder()) {
          @Override
          public float[] embedQuery(String text) {
            queries.incrementAndGet();
            return delegate.embedQuery(text);
          }
        };
    Scope scope = Scope.user("u1");
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(counting)
            .graph(OfflineGraphExtractor.create())
            .build()) {
      memory.add(
          AddRequest.builder(scope)
              .infer(false)
              .message(new Message(Role.USER, "Alice works at Acme", "Alice", null, "m1"))
              .build());
      int before = queries.get();
      SearchResult result =
          memory.search(SearchRequest.builder(scope, "Where does Alice work?").build());
      assertThat(queries.get() - before).isEqualTo(1);
      assertThat(result.hits())
          .extracting(h -> h.memory().text())
          .containsExactly("Alice works at Acme");
      assertThat(result.relations()).extracting(r -> r.fact()).contains("Alice works at Acme");
    }
  }
}

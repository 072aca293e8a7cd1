package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.TimeView;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With graph memory on, {@code infer=false} adds write the graph too (as mem0 does), on the real
 * embedded store.
 */
class GraphForVerbatimAddsTest {
  @TempDir Path dir;

  @Test
  void aVerbatimAddStoresTheTextAsIsAndLinksTheEntitiesItNames() {
    Scope scope = Scope.user("u1");
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .graph(OfflineGraphExtractor.create())
            .build()) {
      var result =
          memory.add(
              AddRequest.builder(scope)
                  .infer(false)
                  .message(
                      new Message(
                          Role.USER,
                          "Caroline went to the LGBTQ support group in Boston",
                          "Caroline",
                          Instant.parse("2023-05-08T13:56:00Z"),
                          "D1:3"))
                  .build());
      assertThat(result.events())
          .singleElement()
          .satisfies(
              e ->
                  assertThat(e.memory())
                      .isEqualTo("Caroline went to the LGBTQ support group in Boston"));
      assertThat(memory.entityRelations(scope, "Boston", TimeView.CURRENT))
          .extracting(
              GraphRelation::source, GraphRelation::relationship, GraphRelation::destination)
          .contains(org.assertj.core.groups.Tuple.tuple("Caroline", "related_to", "Boston"));
      assertThat(
              memory
                  .search(
                      SearchRequest.builder(scope, "Where is Caroline's support group?").build())
                  .relations())
          .extracting(GraphRelation::fact)
          .contains("Caroline went to the LGBTQ support group in Boston");
    }
  }

  /**
   * The offline extractor's facts are memory texts: the add embeds each such text once, for the
   * memory, and its relations take that vector (the search finds them by it).
   */
  @Test
  void aFactThatIsTheMemoryTextIsNotEmbeddedAgain() {
    Scope scope = Scope.user("u1");
    java.util.List<String> embedded = new java.util.ArrayList<>();
    dev.engram.spi.Embedder counting =
        new dev.engram.spi.ForwardingEmbedder(new HashEmbedder()) {
          @Override
          public java.util.List<float[]> embedDocuments(java.util.List<String> texts) {
            embedded.addAll(texts);
            return super.embedDocuments(texts);
          }
        };
    String text = "Caroline met Melanie and Jon at the Boston support group";
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(counting)
            .graph(OfflineGraphExtractor.create())
            .build()) {
      memory.add(AddRequest.builder(scope).infer(false).message(Message.user(text)).build());
      assertThat(embedded).filteredOn(text::equals).hasSize(1);
      assertThat(embedded).contains("Caroline", "Melanie", "Jon", "Boston"); // the entity names
      assertThat(memory.entityRelations(scope, "Boston", TimeView.CURRENT))
          .extracting(GraphRelation::fact)
          .isNotEmpty()
          .containsOnly(text);
      var found = memory.search(SearchRequest.builder(scope, text).threshold(0.0).build());
      assertThat(found.relations()).extracting(GraphRelation::fact).contains(text);
      assertThat(found.relations().get(0).score()).isEqualTo(found.hits().get(0).score());
    }
  }
}

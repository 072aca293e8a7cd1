package dev.engram.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.Usage;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.TimeView;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline graph (no LLM at all) on the embedded store, with the offline memory extractor. */
class OfflineGraphScenarioTest {
  private static final Scope CONV = Scope.run("conv-1");
  private static final Instant MAY_8 = Instant.parse("2023-05-08T13:56:00Z");

  @TempDir Path dir;

  private static AddResult say(Memory memory, String speaker, String text) {
    return memory.add(
        AddRequest.builder(CONV)
            .message(new Message(Role.USER, text, speaker, MAY_8, null))
            .build());
  }

  @Test
  void entityCentredRetrievalWorksWithoutAModel() {
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .graph(OfflineGraphExtractor.create())
            .build()) {
      AddResult r =
          say(memory, "Caroline", "I went to the LGBTQ support group yesterday with Melanie.");
      assertThat(r.usage()).isEqualTo(Usage.NONE);
      say(memory, "Melanie", "I painted a sunrise at the lake.");
      say(memory, "Jon", "My bakery in Paris is closing.");

      assertThat(memory.entityRelations(CONV, "caroline", TimeView.CURRENT))
          .extracting(GraphRelation::relationship, GraphRelation::destination)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple("related_to", "LGBTQ"),
              org.assertj.core.groups.Tuple.tuple("related_to", "Melanie"));
      var found =
          memory.search(SearchRequest.builder(CONV, "What did Melanie do?").build()).relations();
      // Melanie's own relations (one hop) come with their two-hop neighbourhood and the semantic
      // matches.
      assertThat(found.get(0).source() + " " + found.get(0).destination()).contains("Melanie");
      assertThat(found)
          .filteredOn(g -> (g.source() + " " + g.destination()).contains("Melanie"))
          .extracting(GraphRelation::relationship, GraphRelation::fact)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(
                  "related_to",
                  "Caroline went to the LGBTQ support group yesterday (7 May 2023) with Melanie."),
              org.assertj.core.groups.Tuple.tuple(
                  "related_to",
                  "Caroline went to the LGBTQ support group yesterday (7 May 2023) with Melanie."),
              org.assertj.core.groups.Tuple.tuple(
                  "mentioned_in", "Melanie painted a sunrise at the lake."));
      assertThat(
              memory
                  .search(SearchRequest.builder(CONV, "Where is Jon's bakery?").build())
                  .relations())
          .extracting(GraphRelation::fact)
          .first()
          .asString()
          .contains("bakery in Paris");
    }
  }

  @Test
  void withoutGraphConfigurationSearchesCarryNoRelationsAndNothingIsWritten() {
    try (Memory memory =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, 64))
            .embedder(new HashEmbedder())
            .build()) {
      say(memory, "Caroline", "I went to the LGBTQ support group with Melanie.");
      assertThat(memory.search(SearchRequest.builder(CONV, "Melanie").build()).relations())
          .isEmpty();
      assertThat(memory.entityRelations(CONV, "Caroline", TimeView.ALL)).isEmpty();
    }
  }
}

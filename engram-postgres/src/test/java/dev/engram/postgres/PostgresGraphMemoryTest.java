package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.TimeView;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graph memory on PostgreSQL through the engine (offline extractor, no model): an add's entities
 * and relations are written with its memories, read back by entity and by search through another
 * instance on the same schema, and removed with the scope and with a memory delete.
 */
class PostgresGraphMemoryTest {
  private static final Scope CONV = Scope.run("conv-1");
  private static final Instant MAY_8 = Instant.parse("2023-05-08T13:56:00Z");

  @TempDir Path dir;

  private Memory open() {
    return Engram.builder()
        .storage(PostgresStorage.open(PostgresCluster.get().settingsFor(dir), 64))
        .embedder(new HashEmbedder())
        .graph(OfflineGraphExtractor.create())
        .build();
  }

  private static String say(Memory memory, String speaker, String text) {
    return memory
        .add(
            AddRequest.builder(CONV)
                .message(new Message(Role.USER, text, speaker, MAY_8, null))
                .build())
        .events()
        .get(0)
        .id();
  }

  @Test
  void theGraphIsWrittenWithTheMemoriesAndReadThroughAnotherInstance() throws Exception {
    try (Memory writer = open();
        Memory reader = open()) {
      say(writer, "Caroline", "I went to the LGBTQ support group yesterday with Melanie.");
      String painted = say(writer, "Melanie", "I painted a sunrise at the lake.");

      assertThat(reader.entityRelations(CONV, "caroline", TimeView.CURRENT))
          .extracting(GraphRelation::relationship, GraphRelation::destination)
          .containsExactlyInAnyOrder(tuple("related_to", "LGBTQ"), tuple("related_to", "Melanie"));
      var found =
          reader.search(SearchRequest.builder(CONV, "What did Melanie do?").build()).relations();
      assertThat(found)
          .extracting(GraphRelation::fact)
          .contains("Melanie painted a sunrise at the lake.");

      writer.delete(painted);
      assertThat(
              reader
                  .search(SearchRequest.builder(CONV, "What did Melanie do?").build())
                  .relations())
          .extracting(GraphRelation::fact)
          .doesNotContain("Melanie painted a sunrise at the lake.");

      writer.deleteAll(CONV);
      assertThat(reader.entityRelations(CONV, "caroline", TimeView.ALL)).isEmpty();
    }
    try (Connection c = PostgresCluster.get().connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT (SELECT count(*) FROM "
                    + PostgresCluster.schemaFor(dir)
                    + ".graph_entities) + (SELECT count(*) FROM "
                    + PostgresCluster.schemaFor(dir)
                    + ".graph_relations)")) {
      rs.next();
      assertThat(rs.getLong(1)).isZero();
    }
  }
}

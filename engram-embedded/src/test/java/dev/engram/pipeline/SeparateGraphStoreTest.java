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
import dev.engram.spi.StorageWithGraph;
import dev.engram.sqlite.Durability;
import dev.engram.sqlite.SqliteMemoryStore;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graph in its own store (as with Neo4j): the engine applies the graph part of an add after the
 * memory commit, and reads relations from that store. Here the separate store is a second, real
 * SQLite database.
 */
class SeparateGraphStoreTest {
  @TempDir Path dir;
  @TempDir Path graphDir;

  @Test
  void graphChangesGoToTheSeparateStoreAndSearchReadsThem() {
    Scope conv = Scope.run("conv-1");
    SqliteMemoryStore graphDb =
        SqliteMemoryStore.open(graphDir.resolve("engram.db"), Durability.NORMAL);
    try (Memory memory =
        Engram.builder()
            .storage(StorageWithGraph.of(EmbeddedStorage.open(dir, 64), graphDb.graph()))
            .embedder(new HashEmbedder())
            .graph(OfflineGraphExtractor.create())
            .build()) {
      memory.add(
          AddRequest.builder(conv)
              .message(
                  new Message(
                      Role.USER,
                      "My bakery in Paris is closing.",
                      "Jon",
                      Instant.parse("2023-05-08T13:56:00Z"),
                      null))
              .build());
      assertThat(memory.entityRelations(conv, "jon", TimeView.CURRENT)).isNotEmpty();
      assertThat(
              memory
                  .search(SearchRequest.builder(conv, "Where is Jon's bakery?").build())
                  .relations())
          .extracting(GraphRelation::fact)
          .first()
          .asString()
          .contains("bakery in Paris");
    } finally {
      graphDb.close();
    }
    // The relations live in the separate database, not in the memory store's own graph tables.
    assertThat(rows(StoreDump.of(dir), "graph_relations")).isZero();
    assertThat(rows(StoreDump.of(dir), "graph_entities")).isZero();
    assertThat(rows(StoreDump.of(graphDir), "graph_relations")).isPositive();
  }

  /** Rows of one table in a dump. */
  private static long rows(String dump, String table) {
    int at = dump.indexOf("## " + table + "\n");
    if (at < 0) {
      throw new AssertionError("no table " + table + " in the dump");
    }
    String rest = dump.substring(at + table.length() + 4);
    int end = rest.indexOf("## ");
    return (end < 0 ? rest : rest.substring(0, end)).lines().filter(l -> !l.isBlank()).count();
  }
}

package dev.engram.postgres;

import static dev.engram.postgres.OldSchemaRows.ALICE;
import static dev.engram.postgres.OldSchemaRows.connect;
import static dev.engram.postgres.OldSchemaRows.fileNode;
import static dev.engram.postgres.OldSchemaRows.ids;
import static dev.engram.postgres.OldSchemaRows.item;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.Hashes;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.IndexField;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migration V13 on a schema an older Engram left at V12 with a memory in it: {@code memories} gets
 * {@code context_embedding} without a rewrite of the table (same file node); the old memory reads
 * no context embedding and is never a context-dense hit; a new memory keeps its context embedding
 * and is found by it; a memory that an older Engram inserts afterwards (its statement, without the
 * column) has none, and an older Engram's update leaves the column as it was, as it leaves the
 * context.
 */
class PostgresMemoryContextEmbeddingMigrationTest {

  @TempDir Path dir;

  @Test
  void aSchemaAtV12GetsTheContextEmbeddingColumnInPlaceAndItsOldMemoriesHaveNone()
      throws Exception {
    PostgresCluster cluster = PostgresCluster.get();
    String schema = PostgresCluster.schemaFor(dir);
    cluster.migrateTo(schema, "12");
    long fileNode;
    try (Connection c = connect(cluster);
        Statement s = c.createStatement()) {
      s.execute("SET search_path = " + schema);
      s.execute(oldInsert("old", "likes tea in the garden", 1));
      s.execute("UPDATE store_state SET last_seq = 1 WHERE id = 1");
      fileNode = fileNode(s);
    }

    float[] query = {0, 0, 0.6f, 0.8f};
    try (PostgresStorage storage = PostgresStorage.open(cluster.settingsFor(dir), 4)) {
      StoredMemory old = storage.records().get("t1", "old").orElseThrow();
      assertThat(old.contextEmbedding()).isEmpty();
      assertThat(old.context()).isEqualTo("tea talk");
      SearchIndex index = storage.index();
      assertThat(index.denseFields()).contains(IndexField.CONTEXT);
      assertThat(index.dense(ALICE, IndexField.CONTEXT, query, 10)).isEmpty();

      float[] contextVector = {0, 0, 0, 1};
      storage
          .records()
          .apply(
              ChangeSet.of(
                  "t1",
                  List.of(
                      MemoryChange.add(
                          new StoredMemory(
                              "t1",
                              item("new", "relaxes with tea"),
                              new float[] {1, 0, 0, 0},
                              "Where do you relax?",
                              contextVector),
                          null,
                          null,
                          ChangePipelines.ADDITIVE))));
      assertThat(storage.records().get("t1", "new").orElseThrow().contextEmbedding())
          .containsExactly(contextVector);
      assertThat(ids(index.dense(ALICE, IndexField.CONTEXT, query, 10))).containsExactly("new");

      // an older Engram on the same schema: its insert has no context embedding, its update leaves
      // it as it was
      try (Connection c = connect(cluster);
          Statement s = c.createStatement()) {
        s.execute("SET search_path = " + schema);
        s.execute(oldInsert("older-writer", "plays chess in the garden", 5));
        s.execute(
            "UPDATE memories SET text = 'relaxes with green tea', seq = 6 WHERE tenant = 't1' AND id = 'new'");
        assertThat(fileNode(s))
            .as("V13 added its column without rewriting memories")
            .isEqualTo(fileNode);
      }
      assertThat(storage.records().get("t1", "older-writer").orElseThrow().contextEmbedding())
          .isEmpty();
      assertThat(storage.records().get("t1", "new").orElseThrow().contextEmbedding())
          .containsExactly(contextVector);
      assertThat(ids(index.dense(ALICE, IndexField.CONTEXT, query, 10))).containsExactly("new");
    }
    try (Connection c = connect(cluster);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM "
                    + schema
                    + ".flyway_schema_history WHERE version = '13' AND success")) {
      rs.next();
      assertThat(rs.getInt(1)).as("V13 applied once, successfully").isEqualTo(1);
    }
  }

  /** An INSERT as Engram wrote it at V12, with a context and without the context embedding. */
  private static String oldInsert(String id, String text, long seq) {
    return "INSERT INTO memories (tenant, id, user_id, text, hash, metadata, folded, created_s, created_ns,"
        + " updated_s, updated_ns, source_ids, embedding, seq, context, context_tsv) VALUES ('t1', '"
        + id
        + "', 'alice', '"
        + text
        + "', '"
        + Hashes.md5(text)
        + "', '{}', '{}', 1714550400, 0, 1714550400, 0, '[]',"
        + " '{0,1,0,0}', "
        + seq
        + ", 'tea talk', to_tsvector('english', 'tea talk'))";
  }
}

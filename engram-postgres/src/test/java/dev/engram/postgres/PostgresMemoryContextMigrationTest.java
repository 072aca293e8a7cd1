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
 * Migration V12 on a schema an older Engram left at V11 with a memory in it: {@code memories} gets
 * {@code context} and {@code context_tsv} without a rewrite of the table (same file node), the old
 * memory reads context {@code ""} and is found by text as before and not by context; a new memory
 * keeps its context and is found by it; a memory that an older Engram inserts or updates afterwards
 * (its statements, without the new columns) keeps the two columns in step.
 */
class PostgresMemoryContextMigrationTest {

  @TempDir Path dir;

  @Test
  void aSchemaAtV11GetsTheContextColumnsInPlaceAndItsOldMemoriesReadNoContext() throws Exception {
    PostgresCluster cluster = PostgresCluster.get();
    String schema = PostgresCluster.schemaFor(dir);
    cluster.migrateTo(schema, "11");
    long fileNode;
    try (Connection c = connect(cluster);
        Statement s = c.createStatement()) {
      s.execute("SET search_path = " + schema);
      s.execute(oldInsert("old", "likes tea in the garden", 1));
      s.execute("UPDATE store_state SET last_seq = 1 WHERE id = 1");
      fileNode = fileNode(s);
    }

    try (PostgresStorage storage = PostgresStorage.open(cluster.settingsFor(dir), 4)) {
      StoredMemory old = storage.records().get("t1", "old").orElseThrow();
      assertThat(old.item().text()).isEqualTo("likes tea in the garden");
      assertThat(old.context()).isEmpty();
      SearchIndex index = storage.index();
      assertThat(ids(index.keyword(ALICE, IndexField.TEXT, "tea", 10))).containsExactly("old");
      assertThat(index.keyword(ALICE, IndexField.CONTEXT, "tea garden", 10)).isEmpty();

      String context = "Where do you relax?\nI like tea in the garden";
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
                              context),
                          null,
                          null,
                          ChangePipelines.ADDITIVE))));
      assertThat(storage.records().get("t1", "new").orElseThrow().context()).isEqualTo(context);
      assertThat(ids(index.keyword(ALICE, IndexField.CONTEXT, "relax", 10))).containsExactly("new");
      assertThat(ids(index.keyword(ALICE, IndexField.CONTEXT, "garden", 10)))
          .containsExactly("new");

      // an older Engram on the same schema: its insert has no context, its update leaves the
      // context as it was
      try (Connection c = connect(cluster);
          Statement s = c.createStatement()) {
        s.execute("SET search_path = " + schema);
        s.execute(oldInsert("older-writer", "plays chess in the garden", 5));
        s.execute(
            "UPDATE memories SET text = 'relaxes with green tea', seq = 6 WHERE tenant = 't1' AND id = 'new'");
        assertThat(fileNode(s))
            .as("V12 added its columns without rewriting memories")
            .isEqualTo(fileNode);
      }
      assertThat(storage.records().get("t1", "older-writer").orElseThrow().context()).isEmpty();
      assertThat(storage.records().get("t1", "new").orElseThrow().context()).isEqualTo(context);
      assertThat(ids(index.keyword(ALICE, IndexField.CONTEXT, "garden", 10)))
          .containsExactly("new");
      assertThat(ids(index.keyword(ALICE, IndexField.TEXT, "garden", 10)))
          .containsExactlyInAnyOrder("old", "older-writer");
    }
    try (Connection c = connect(cluster);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM "
                    + schema
                    + ".flyway_schema_history WHERE version = '12' AND success")) {
      rs.next();
      assertThat(rs.getInt(1)).as("V12 applied once, successfully").isEqualTo(1);
    }
  }

  /** An INSERT as Engram wrote it at V11, without the context columns. */
  private static String oldInsert(String id, String text, long seq) {
    return "INSERT INTO memories (tenant, id, user_id, text, hash, metadata, folded, created_s, created_ns,"
        + " updated_s, updated_ns, source_ids, embedding, seq) VALUES ('t1', '"
        + id
        + "', 'alice', '"
        + text
        + "', '"
        + Hashes.md5(text)
        + "', '{}', '{}', 1714550400, 0, 1714550400, 0, '[]', '{0,1,0,0}', "
        + seq
        + ")";
  }
}

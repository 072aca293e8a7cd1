package dev.engram.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.MemoryItem;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migration V3 on a schema an older Engram left at V2: {@code history.pipeline} is added, the rows
 * already there read as {@code unknown}, new rows keep their pipeline.
 */
class PostgresHistoryPipelineMigrationTest {
  private static final Instant T0 = Instant.parse("2024-05-01T08:00:00Z");

  @TempDir Path dir;

  @Test
  void aSchemaAtV2GetsThePipelineColumnAndItsOldRowsReadUnknown() throws Exception {
    PostgresCluster cluster = PostgresCluster.get();
    String schema = PostgresCluster.schemaFor(dir);
    cluster.migrateTo(schema, "2");
    try (Connection c =
            DriverManager.getConnection(cluster.url(), "postgres", PostgresCluster.PASSWORD);
        Statement s = c.createStatement()) {
      s.execute(
          "INSERT INTO "
              + schema
              + ".history (seq, tenant, memory_id, event, old_text, new_text, actor_id,"
              + " role, at_s, at_ns) VALUES (1, 't1', 'old', 'ADD', NULL, 'likes tea', NULL, NULL, 1714550400, 0)");
      s.execute("UPDATE " + schema + ".store_state SET last_seq = 1 WHERE id = 1");
    }

    MemoryItem item =
        new MemoryItem(
            "m1",
            "likes coffee",
            dev.engram.Hashes.md5("likes coffee"),
            Map.of(),
            "alice",
            null,
            null,
            null,
            null,
            T0,
            T0,
            null,
            List.of(),
            null);
    try (PostgresStorage storage = PostgresStorage.open(cluster.settingsFor(dir), 4)) {
      assertThat(storage.records().history("t1", "old"))
          .extracting(HistoryEntry::event, HistoryEntry::newText, HistoryEntry::pipeline)
          .containsExactly(tuple(EventType.ADD, "likes tea", ChangePipelines.UNKNOWN));
      storage
          .records()
          .apply(
              ChangeSet.of(
                  "t1",
                  List.of(
                      MemoryChange.add(
                          new StoredMemory("t1", item, new float[] {1, 0, 0, 0}),
                          null,
                          null,
                          ChangePipelines.ADDITIVE))));
      assertThat(storage.records().history("t1", "m1"))
          .extracting(HistoryEntry::pipeline)
          .containsExactly(ChangePipelines.ADDITIVE);
    }
    try (Connection c =
            DriverManager.getConnection(cluster.url(), "postgres", PostgresCluster.PASSWORD);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT count(*) FROM "
                    + schema
                    + ".flyway_schema_history WHERE version = '3' AND success")) {
      rs.next();
      assertThat(rs.getInt(1)).as("V3 applied once, successfully").isEqualTo(1);
    }
  }
}

package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.memory;
import static dev.engram.sqlite.SqliteFiles.exec;
import static dev.engram.sqlite.SqliteFiles.rows;
import static dev.engram.sqlite.SqliteFiles.writeWithoutColumn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code history.pipeline}: added to a file written before history rows recorded their pipeline
 * (without a schema version change), its old rows read as {@code unknown}, new rows keep theirs,
 * and a row an older Engram writes without the column reads as {@code unknown} too.
 */
class HistoryPipelineUpgradeTest {
  @TempDir Path dir;

  @Test
  void aFileWithoutThePipelineColumnGetsItWhenOpenedAndOldRowsReadUnknown() throws Exception {
    Path db = dir.resolve("engram.db");
    StoredMemory m = memory().id("m1").text("likes tea").stored();
    // The file as an Engram without history pipelines left it.
    writeWithoutColumn(db, m, "history", "pipeline");

    StoredMemory updated =
        new StoredMemory(
            "t1",
            m.item().withContent("likes green tea", Map.of(), null, Memories.T0.plusSeconds(60)),
            m.embedding());
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.history("t1", "m1"))
          .extracting(HistoryEntry::event, HistoryEntry::pipeline)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(EventType.ADD, ChangePipelines.UNKNOWN));
      store.apply(
          ChangeSet.of(
              "t1",
              List.of(MemoryChange.update(updated, "likes tea", ChangePipelines.CONSOLIDATE))));
    }
    // An older Engram writes a row without the column.
    exec(
        db,
        "INSERT INTO history (tenant, memory_id, event, old_text, new_text, created_s, created_ns)"
            + " VALUES ('t1', 'm1', 'DELETE', 'likes green tea', NULL, 1714550500, 0)");

    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.history("t1", "m1"))
          .extracting(HistoryEntry::pipeline)
          .containsExactly(
              ChangePipelines.UNKNOWN, ChangePipelines.CONSOLIDATE, ChangePipelines.UNKNOWN);
    }
    assertThat(rows(db, "SELECT value FROM meta WHERE key = 'schema_version'"))
        .containsExactly("1");
  }
}

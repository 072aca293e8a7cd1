package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.memory;
import static dev.engram.sqlite.SqliteFiles.exec;
import static dev.engram.sqlite.SqliteFiles.rows;
import static dev.engram.sqlite.SqliteFiles.writeWithoutColumn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memories.context}: added to a file written before memories kept their source context
 * (without a schema version change); its old memories read as having none, new ones keep theirs,
 * and a memory an older Engram writes without the column reads as having none too.
 */
class MemoryContextUpgradeTest {
  @TempDir Path dir;

  @Test
  void aFileWithoutTheContextColumnGetsItWhenOpenedAndOldMemoriesHaveNone() throws Exception {
    Path db = dir.resolve("engram.db");
    StoredMemory old = memory().id("m1").text("likes tea").stored();
    // The file as an Engram without source contexts left it.
    writeWithoutColumn(db, old, "memories", "context");

    StoredMemory fresh =
        new StoredMemory(
            "t1",
            memory().id("m2").text("likes green tea").stored().item(),
            old.embedding(),
            "What do you drink?\nGreen tea, mostly");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.get("t1", "m1").orElseThrow().context()).isEmpty();
      store.apply(
          ChangeSet.of("t1", List.of(MemoryChange.add(fresh, null, null, ChangePipelines.RAW))));
      assertThat(store.get("t1", "m2").orElseThrow().context())
          .isEqualTo("What do you drink?\nGreen tea, mostly");
    }
    // An older Engram writes a memory without the column: a copy of m1's row under another id.
    exec(
        db,
        "INSERT INTO memories (tenant, id, user_id, agent_id, run_id, actor_id, role, text, hash, metadata,"
            + " created_s, created_ns, updated_s, updated_ns, event_s, event_ns, source_ids, expiration_day,"
            + " embedding, seq) SELECT tenant, 'm3', user_id, agent_id, run_id, actor_id, role, text, hash, metadata,"
            + " created_s, created_ns, updated_s, updated_ns, event_s, event_ns, source_ids, expiration_day,"
            + " embedding, seq FROM memories WHERE id = 'm1'");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.get("t1", "m3").orElseThrow().context()).isEmpty();
      assertThat(store.get("t1", "m2").orElseThrow().context())
          .isEqualTo("What do you drink?\nGreen tea, mostly");
    }
    assertThat(rows(db, "SELECT value FROM meta WHERE key = 'schema_version'"))
        .containsExactly("1");
  }
}

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
 * {@code memories.context_embedding}: a memory keeps its context embedding through writes, updates
 * and reopening; the column is added to a file written before contexts were embedded (without a
 * schema version change), whose old memories read as having none, and a memory an older Engram
 * writes without the column reads as having none too.
 */
class MemoryContextEmbeddingUpgradeTest {
  private static final float[] CONTEXT_VECTOR = {0.6f, 0.8f, 0f, -0f};

  @TempDir Path dir;

  @Test
  void aMemoryKeepsItsContextEmbeddingAndAnOlderFileGetsTheColumn() throws Exception {
    Path db = dir.resolve("engram.db");
    StoredMemory old = memory().id("m1").text("likes tea").stored();
    // The file as an Engram without context embeddings left it.
    writeWithoutColumn(db, old, "memories", "context_embedding");

    StoredMemory fresh =
        new StoredMemory(
            "t1",
            memory().id("m2").text("likes green tea").stored().item(),
            old.embedding(),
            "What do you drink?",
            CONTEXT_VECTOR);
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.get("t1", "m1").orElseThrow().contextEmbedding()).isEmpty();
      store.apply(
          ChangeSet.of("t1", List.of(MemoryChange.add(fresh, null, null, ChangePipelines.RAW))));
      assertThat(store.get("t1", "m2").orElseThrow().contextEmbedding())
          .containsExactly(CONTEXT_VECTOR);
      StoredMemory changed =
          fresh.withItem(
              fresh
                  .item()
                  .withContent(
                      "likes oolong tea",
                      fresh.item().metadata(),
                      null,
                      fresh.item().updatedAt().plusSeconds(1)));
      store.apply(
          ChangeSet.of(
              "t1",
              List.of(MemoryChange.update(changed, "likes green tea", ChangePipelines.UPDATE))));
    }
    // An older Engram writes a memory without the column: a copy of m1's row under another id.
    exec(
        db,
        "INSERT INTO memories (tenant, id, user_id, agent_id, run_id, actor_id, role, text, hash, metadata,"
            + " created_s, created_ns, updated_s, updated_ns, event_s, event_ns, source_ids, expiration_day,"
            + " embedding, seq, context) SELECT tenant, 'm3', user_id, agent_id, run_id, actor_id, role, text, hash,"
            + " metadata, created_s, created_ns, updated_s, updated_ns, event_s, event_ns, source_ids, expiration_day,"
            + " embedding, seq, context FROM memories WHERE id = 'm1'");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.get("t1", "m3").orElseThrow().contextEmbedding()).isEmpty();
      StoredMemory reread = store.get("t1", "m2").orElseThrow();
      assertThat(reread.item().text()).isEqualTo("likes oolong tea");
      assertThat(reread.contextEmbedding()).containsExactly(CONTEXT_VECTOR);
      assertThat(store.getAll("t1", List.of("m1", "m2")))
          .extracting(m -> m.contextEmbedding().length)
          .containsExactlyInAnyOrder(0, CONTEXT_VECTOR.length);
    }
    assertThat(rows(db, "SELECT value FROM meta WHERE key = 'schema_version'"))
        .containsExactly("1");
  }
}

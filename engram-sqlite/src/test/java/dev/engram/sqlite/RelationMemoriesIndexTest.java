package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code graph_relation_memories}, the index of relations by memory id: kept by triggers, and
 * filled from the JSON column when a file written before it existed is opened.
 */
class RelationMemoriesIndexTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant T = Instant.parse("2024-01-01T00:00:00Z");

  @TempDir Path dir;

  private static Relation relation(String id, List<String> memoryIds) {
    return new Relation(
        id,
        "e1",
        "lives_in",
        "e2",
        "Alice lives in Beijing",
        new float[] {1, 1},
        T,
        null,
        T,
        null,
        List.of("msg-1"),
        memoryIds,
        ALICE);
  }

  private static GraphChanges graph() {
    Entity a = new Entity("e1", "Alice", "alice", "person", new float[] {1, 0}, 1, T, T, ALICE);
    Entity b = new Entity("e2", "Beijing", "beijing", "city", new float[] {0, 1}, 1, T, T, ALICE);
    return GraphChanges.upserts(
        List.of(a, b), List.of(relation("r1", List.of("m1", "m2")), relation("r2", List.of("m2"))));
  }

  private List<String> indexRows(Path db) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT tenant || ' ' || memory_id || ' ' || relation_id"
                    + " FROM graph_relation_memories ORDER BY 1")) {
      List<String> out = new java.util.ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  @Test
  void triggersKeepTheIndexEqualToTheJsonColumn() throws Exception {
    Path db = dir.resolve("engram.db");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      store.graph().apply("t1", graph());
      store
          .graph()
          .apply(
              "t1", GraphChanges.upserts(List.of(), List.of(relation("r2", List.of("m3", "m3")))));
      store.graph().apply("t2", graph());
      store
          .graph()
          .apply(
              "t2",
              new GraphChanges(List.of(), List.of(), java.util.Set.of("r1"), java.util.Set.of()));
    }
    assertThat(indexRows(db)).containsExactly("t1 m1 r1", "t1 m2 r1", "t1 m3 r2", "t2 m2 r2");
  }

  @Test
  void anOlderFileIsIndexedWhenOpened() throws Exception {
    Path db = dir.resolve("engram.db");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      store.graph().apply("t1", graph());
    }
    // The file as an Engram without the index left it.
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement()) {
      for (String trigger : List.of("insert", "update", "delete")) {
        s.execute("DROP TRIGGER graph_relations_memories_" + trigger);
      }
      s.execute("DROP TABLE graph_relation_memories");
    }
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.graph().relationsFromMemories("t1", List.of("m1")))
          .extracting(Relation::id)
          .containsExactly("r1");
      assertThat(store.graph().relationsFromMemories("t1", List.of("m2")))
          .extracting(Relation::id)
          .containsExactly("r1", "r2");
    }
    assertThat(indexRows(db)).containsExactly("t1 m1 r1", "t1 m2 r1", "t1 m2 r2");
  }
}

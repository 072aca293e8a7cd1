package dev.engram.sqlite;

import static dev.engram.sqlite.SqliteFiles.exec;
import static dev.engram.sqlite.SqliteFiles.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code graph_entities.aliases} and {@code graph_entity_aliases}, the index of entities by alias:
 * kept by triggers, added to a file written before either existed (without a schema version
 * change), and filled from the JSON column when the index table is missing.
 */
class EntityAliasesIndexTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Scope ALICE_R1 = Scope.of("alice", null, "r1");
  private static final Instant T = Instant.parse("2024-01-01T00:00:00Z");

  @TempDir Path dir;

  private static Entity entity(String id, String name, Scope scope, String... aliases) {
    return new Entity(
        id,
        name,
        name.toLowerCase(),
        "person",
        new float[] {1, 0},
        1,
        T,
        T,
        scope,
        List.of(aliases));
  }

  private static List<String> indexRows(Path db) throws Exception {
    return rows(
        db,
        "SELECT tenant || ' ' || entity_id || ' ' || alias || ' ' || coalesce(user_id, '-') || ' '"
            + " || coalesce(run_id, '-') FROM graph_entity_aliases ORDER BY 1");
  }

  /**
   * Removes the alias table and its triggers: the file as an Engram with a JSON column but no index
   * left it.
   */
  private static void dropIndex(Path db) throws Exception {
    exec(
        db,
        "DROP TRIGGER graph_entities_aliases_insert",
        "DROP TRIGGER graph_entities_aliases_update",
        "DROP TRIGGER graph_entities_aliases_delete",
        "DROP TABLE graph_entity_aliases");
  }

  @Test
  void triggersKeepTheIndexEqualToTheJsonColumn() throws Exception {
    Path db = dir.resolve("engram.db");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      store
          .graph()
          .apply(
              "t1",
              GraphChanges.upserts(
                  List.of(
                      entity("e1", "Melanie", ALICE, "mel", "mellie"),
                      entity("e2", "Bob", ALICE_R1, "robert"),
                      entity("e3", "Carol", ALICE, "caz")),
                  List.of()));
      store
          .graph()
          .apply(
              "t2",
              GraphChanges.upserts(List.of(entity("e1", "Melanie", ALICE, "mel")), List.of()));
      // Replace e1's aliases, delete e3, and rewrite e2 through an UPDATE (as a hand edit would).
      store
          .graph()
          .apply(
              "t1",
              new GraphChanges(
                  List.of(entity("e1", "Melanie", ALICE, "melly")),
                  List.of(),
                  Set.of(),
                  Set.of("e3")));
    }
    exec(
        db,
        "UPDATE graph_entities SET aliases = '[\"bobby\",\"rob\"]' WHERE tenant = 't1' AND id = 'e2'");
    assertThat(indexRows(db))
        .containsExactly(
            "t1 e1 melly alice -",
            "t1 e2 bobby alice r1",
            "t1 e2 rob alice r1",
            "t2 e1 mel alice -");
    // An older Engram writes entities without the column: the default [] clears the entity's
    // aliases.
    exec(
        db,
        "INSERT OR REPLACE INTO graph_entities (tenant, id, name, norm_name, type, embedding, mentions,"
            + " created_s, created_ns, updated_s, updated_ns, user_id, agent_id, run_id)"
            + " SELECT tenant, id, name, norm_name, type, embedding, mentions + 1, created_s, created_ns, updated_s,"
            + " updated_ns, user_id, agent_id, run_id FROM graph_entities WHERE tenant = 't1' AND id = 'e1'");
    assertThat(indexRows(db))
        .containsExactly("t1 e2 bobby alice r1", "t1 e2 rob alice r1", "t2 e1 mel alice -");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.graph().entities("t1", List.of("e1")).get(0).aliases()).isEmpty();
      assertThat(store.graph().entitiesByName("t1", ALICE, List.of("rob")))
          .extracting(Entity::id)
          .containsExactly("e2");
      store.graph().deleteScope("t1", ALICE_R1);
      assertThat(indexRows(db)).containsExactly("t2 e1 mel alice -");
      store.graph().reset("t2");
    }
    assertThat(indexRows(db)).isEmpty();
  }

  @Test
  void aFileWithoutAliasesGetsTheColumnAndTheIndexWhenOpened() throws Exception {
    Path db = dir.resolve("engram.db");
    Entity melanie = entity("e1", "Melanie", ALICE);
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      store
          .graph()
          .apply(
              "t1",
              GraphChanges.upserts(List.of(melanie, entity("e2", "Bob", ALICE_R1)), List.of()));
    }
    // The file as an Engram without aliases left it.
    dropIndex(db);
    exec(db, "ALTER TABLE graph_entities DROP COLUMN aliases");
    assertThat(
            rows(db, "SELECT name FROM pragma_table_info('graph_entities') WHERE name = 'aliases'"))
        .isEmpty();

    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.graph().entities("t1", List.of("e1"))).containsExactly(melanie);
      assertThat(store.graph().entitiesByName("t1", ALICE, List.of("melanie")))
          .containsExactly(melanie);
      Entity aliased = melanie.withAlias("mel", T.plusSeconds(1));
      store.graph().apply("t1", GraphChanges.upserts(List.of(aliased), List.of()));
      assertThat(store.graph().entitiesByName("t1", ALICE, List.of("mel")))
          .containsExactly(aliased);
    }
    assertThat(rows(db, "SELECT value FROM meta WHERE key = 'schema_version'"))
        .containsExactly("1");
    assertThat(rows(db, "SELECT aliases FROM graph_entities ORDER BY id"))
        .containsExactly("[\"mel\"]", "[]");
    assertThat(indexRows(db)).containsExactly("t1 e1 mel alice -");
    // Opening again changes nothing.
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.graph().entitiesByName("t1", ALICE, List.of("mel")))
          .extracting(Entity::id)
          .containsExactly("e1");
    }
    assertThat(indexRows(db)).containsExactly("t1 e1 mel alice -");
  }

  @Test
  void aMissingIndexIsFilledFromTheJsonColumnWhenOpened() throws Exception {
    Path db = dir.resolve("engram.db");
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      store
          .graph()
          .apply(
              "t1",
              GraphChanges.upserts(
                  List.of(
                      entity("e1", "Melanie", ALICE, "mel", "mellie"),
                      entity("e2", "Bob", ALICE_R1, "rob")),
                  List.of()));
    }
    dropIndex(db);
    try (SqliteMemoryStore store = SqliteMemoryStore.open(db, Durability.NORMAL)) {
      assertThat(store.graph().entitiesByName("t1", ALICE, List.of("mellie", "rob")))
          .extracting(Entity::id)
          .containsExactlyInAnyOrder("e1", "e2");
      assertThat(store.graph().entitiesByName("t1", Scope.of("alice", null, "r2"), List.of("rob")))
          .isEmpty();
    }
    assertThat(indexRows(db))
        .containsExactly("t1 e1 mel alice -", "t1 e1 mellie alice -", "t1 e2 rob alice r1");
  }
}

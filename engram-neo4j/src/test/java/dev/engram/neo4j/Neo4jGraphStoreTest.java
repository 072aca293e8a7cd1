package dev.engram.neo4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Names;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * What the shared contract cannot see on Neo4j: values are parameters and never Cypher text, scope
 * isolation among many scopes sharing names, the data outliving a driver, the schema, atomic
 * rollback of a failed apply, and the server-side facts the store relies on (loopback Bolt, the (1
 * + cos) / 2 mapping).
 */
class Neo4jGraphStoreTest {
  private static final Instant T0 = Instant.parse("2024-03-01T08:15:30.000000001Z");
  private static final String TENANT = "acme";

  private static TestNeo4j neo4j;
  private static Driver driver;
  private Neo4jGraphStore store;

  @BeforeAll
  static void startNeo4j() {
    neo4j = TestNeo4j.start();
    driver = neo4j.newDriver();
  }

  @AfterAll
  static void stopNeo4j() {
    driver.close();
    neo4j.close();
  }

  @BeforeEach
  void emptyDatabase() {
    driver.executableQuery("MATCH (n) DETACH DELETE n").execute();
    store = Neo4jGraphStore.open(driver, "neo4j");
  }

  private static Entity entity(String id, String name, Scope scope, float... v) {
    return new Entity(id, name, Names.normalize(name), "person", v, 1, T0, T0, scope);
  }

  private static Relation relation(
      String id, Entity s, String name, Entity t, List<String> messages, float... v) {
    return new Relation(
        id,
        s.id(),
        name,
        t.id(),
        s.name() + " " + name + " " + t.name(),
        v,
        T0,
        null,
        T0,
        null,
        messages,
        List.of(),
        s.scope());
  }

  private long count(String cypher) {
    return driver.executableQuery(cypher).execute().records().get(0).get(0).asLong();
  }

  @Test
  void boltListensOnLoopbackAndCosineIsMappedToZeroOne() {
    assertThat(neo4j.boltUri()).startsWith("bolt://127.0.0.1:");
    var row =
        driver
            .executableQuery(
                "RETURN vector.similarity.cosine([1.0, 0.0], [0.0, 1.0]) AS ortho,"
                    + " vector.similarity.cosine([1.0, 0.0], [-1.0, 0.0]) AS opposite,"
                    + " vector.similarity.cosine([3.0, 4.0], [3.0, 4.0]) AS same")
            .execute()
            .records()
            .get(0);
    assertThat(row.get("ortho").asDouble()).isEqualTo(0.5);
    assertThat(row.get("opposite").asDouble()).isEqualTo(0.0);
    assertThat(row.get("same").asDouble()).isEqualTo(1.0);
  }

  @Test
  void quotesBackticksAndCypherKeywordsAreDataNotCypher() {
    String tenant = "t'`\"}{;";
    Scope scope = Scope.of("u'1`)DETACH/**/DELETE(n)//", "a\"b", "MATCH(n)");
    String evil = "Robert'); MATCH (n) DETACH DELETE n; // `x` \"y\" {z} $tenant \\";
    Entity a = entity("id'`\"", evil, scope, 1, 0);
    Entity b = entity("RETURN 1", "`DELETE` CREATE", scope, 0, 1);
    Relation r = relation("r'`}", a, "DETACH DELETE n` RETURN `", b, List.of("m'`", ""), 1, 1);
    Entity bystander = entity("e-1", "Bystander", Scope.user("other"), 1, 0);
    store.apply(TENANT, GraphChanges.upserts(List.of(bystander), List.of()));

    store.apply(tenant, GraphChanges.upserts(List.of(a, b), List.of(r)));

    assertThat(store.entities(tenant, List.of(a.id(), b.id()))).containsExactlyInAnyOrder(a, b);
    assertThat(store.entitiesByName(tenant, scope, List.of(Names.normalize(evil))))
        .containsExactly(a);
    assertThat(store.relationsOf(tenant, scope, List.of(a.id()), TimeView.ALL)).containsExactly(r);
    assertThat(
            store
                .similarRelations(tenant, scope, new float[] {1, 1}, 3, TimeView.ALL)
                .get(0)
                .relation())
        .isEqualTo(r);
    assertThat(store.entities(TENANT, List.of("e-1"))).containsExactly(bystander);
    assertThat(count("MATCH (n) RETURN count(n)")).isEqualTo(3);
    assertThat(store.deleteScope(tenant, scope)).isEqualTo(2);
    assertThat(store.entities(TENANT, List.of("e-1"))).containsExactly(bystander);
  }

  @Test
  void manyScopesSharingNamesStayApart() {
    List<Entity> entities = new ArrayList<>();
    List<Relation> relations = new ArrayList<>();
    for (int u = 0; u < 40; u++) {
      Scope scope = Scope.of("user-" + u, u % 2 == 0 ? "agent" : null, null);
      Entity alice = entity("alice-" + u, "Alice", scope, 1, u);
      Entity paris = entity("paris-" + u, "Paris", scope, u, 1);
      entities.add(alice);
      entities.add(paris);
      relations.add(relation("lives-" + u, alice, "lives_in", paris, List.of("m-" + u), 1, 1));
    }
    store.apply(TENANT, GraphChanges.upserts(entities, relations));

    Scope user7 = Scope.user("user-7");
    assertThat(store.entitiesByName(TENANT, user7, List.of("alice", "paris")))
        .extracting(Entity::id)
        .containsExactlyInAnyOrder("alice-7", "paris-7");
    // Paris (7, 1) is closer to (1, 0) than Alice (1, 7); the other 39 scopes hold closer vectors
    // still.
    assertThat(store.similarEntities(TENANT, user7, new float[] {1, 0}, 10))
        .extracting(s -> s.entity().id())
        .containsExactly("paris-7", "alice-7");
    assertThat(store.similarRelations(TENANT, user7, new float[] {1, 1}, 10, TimeView.ALL))
        .extracting(s -> s.relation().id())
        .containsExactly("lives-7");
    // An entity id of another scope finds nothing through this scope.
    assertThat(store.relationsOf(TENANT, user7, List.of("alice-8"), TimeView.ALL)).isEmpty();
    // The agent scope spans the 20 even users.
    assertThat(store.entitiesByName(TENANT, Scope.agent("agent"), List.of("alice"))).hasSize(20);
    assertThat(
            store.similarRelations(
                TENANT, Scope.agent("agent"), new float[] {1, 1}, 100, TimeView.ALL))
        .hasSize(20);
    assertThat(store.deleteScope(TENANT, Scope.of("user-8", "agent", null))).isEqualTo(2);
    assertThat(store.deleteScope(TENANT, Scope.of("user-7", "agent", null))).isZero();
    assertThat(count("MATCH (e:Entity) RETURN count(e)")).isEqualTo(78);
    assertThat(count("MATCH ()-[r:RELATES]->() RETURN count(r)")).isEqualTo(39);
  }

  @Test
  void aNewDriverSeesTheDataAndReopeningKeepsIt() {
    Entity a = entity("a", "Alice", Scope.user("u"), 1, 0);
    Entity b = entity("b", "Beijing", Scope.user("u"), 0, 1);
    Relation r = relation("r", a, "lives_in", b, List.of(), 1, 1);
    store.apply(TENANT, GraphChanges.upserts(List.of(a, b), List.of(r)));
    store.close();

    try (Neo4jGraphStore again =
        Neo4jGraphStore.connect(Neo4jSettings.of(neo4j.boltUri(), "", ""))) {
      assertThat(again.entities(TENANT, List.of("a", "b"))).containsExactlyInAnyOrder(a, b);
      assertThat(again.relationsOf(TENANT, Scope.user("u"), List.of("b"), TimeView.ALL))
          .containsExactly(r);
      assertThat(r.sourceMessageIds()).isEmpty();
    }
    // The caller's driver outlives a store opened on it.
    assertThat(Neo4jGraphStore.open(driver, "neo4j").entities(TENANT, List.of("a")))
        .containsExactly(a);
  }

  @Test
  void openCreatesTheSchemaOnceAndNoVectorIndex() {
    Neo4jGraphStore.open(driver, "neo4j");
    List<String> names =
        driver
            .executableQuery(
                "SHOW INDEXES YIELD name, type WHERE name STARTS WITH 'engram_'"
                    + " RETURN name ORDER BY name")
            .execute()
            .records()
            .stream()
            .map(r -> r.get("name").asString())
            .toList();
    assertThat(names)
        .containsExactly(
            "engram_entity_agent",
            "engram_entity_id",
            "engram_entity_name",
            "engram_entity_run",
            "engram_entity_user",
            "engram_relates_agent",
            "engram_relates_id",
            "engram_relates_run",
            "engram_relates_user");
    assertThat(count("SHOW INDEXES YIELD type WHERE type = 'VECTOR' RETURN count(*)")).isZero();
    Entity a = entity("a", "Alice", Scope.user("u"), 1, 0);
    store.apply(TENANT, GraphChanges.upserts(List.of(a), List.of()));
    assertThatThrownBy(
            () ->
                driver
                    .executableQuery("CREATE (:Entity {tenant: $t, id: 'a'})")
                    .withParameters(Map.of("t", TENANT))
                    .execute())
        .hasMessageContaining("already exists");
  }

  @Test
  void aRelationWithAMissingEndpointRollsTheWholeApplyBack() {
    Scope u = Scope.user("u");
    Entity a = entity("a", "Alice", u, 1, 0);
    Entity ghost = entity("ghost", "Ghost", u, 0, 1);
    Relation r = relation("r", a, "knows", ghost, List.of("m"), 1, 1);
    assertThatThrownBy(
            () -> store.apply(TENANT, new GraphChanges(List.of(a), List.of(r), Set.of())))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("relation r of tenant acme")
        .hasMessageContaining("a -> ghost");
    assertThat(count("MATCH (n) RETURN count(n)")).isZero();
  }

  @Test
  void aRelationUpsertMayMoveItsEndpointsAndTheLastUpsertOfAnIdWins() {
    Scope u = Scope.user("u");
    Entity a = entity("a", "Alice", u, 1, 0);
    Entity b = entity("b", "Beijing", u, 0, 1);
    Entity c = entity("c", "Shanghai", u, 1, 1);
    Relation first = relation("r", a, "lives_in", b, List.of("m1"), 1, 0);
    Relation moved = relation("r", a, "lives_in", c, List.of("m2"), 0, 1);
    store.apply(TENANT, GraphChanges.upserts(List.of(a, b, c), List.of(first)));
    store.apply(TENANT, GraphChanges.upserts(List.of(), List.of(first, moved)));
    assertThat(store.relationsOf(TENANT, u, List.of("a", "b", "c"), TimeView.ALL))
        .containsExactly(moved);
    assertThat(count("MATCH ()-[r:RELATES]->() RETURN count(r)")).isEqualTo(1);
  }

  @Test
  void zeroEmptyOrMismatchedVectorsScoreZeroAndRoundTrip() {
    Scope u = Scope.user("u");
    Entity good = entity("a-good", "Good", u, 0.6f, 0.8f);
    Entity zero = entity("b-zero", "Zero", u, 0, 0);
    Entity empty = entity("c-empty", "Empty", u);
    Entity wide = entity("d-wide", "Wide", u, 1, 0, 0);
    Relation flat = relation("r-flat", good, "is", zero, List.of("m"), 0, 0);
    store.apply(TENANT, GraphChanges.upserts(List.of(good, zero, empty, wide), List.of(flat)));

    assertThat(store.entities(TENANT, List.of("a-good", "b-zero", "c-empty", "d-wide")))
        .containsExactlyInAnyOrder(good, zero, empty, wide);
    var hits = store.similarEntities(TENANT, u, new float[] {0.6f, 0.8f}, 4);
    assertThat(hits)
        .extracting(h -> h.entity().id())
        .containsExactly("a-good", "b-zero", "c-empty", "d-wide");
    assertThat(hits)
        .extracting(h -> Math.round(h.score() * 1e6) / 1e6)
        .containsExactly(1.0, 0.0, 0.0, 0.0);
    // A zero query scores every row 0: the order is by id.
    assertThat(store.similarEntities(TENANT, u, new float[] {0, 0}, 2))
        .extracting(h -> h.score())
        .containsExactly(0.0, 0.0);
    assertThat(store.similarRelations(TENANT, u, new float[] {1, 0}, 1, TimeView.ALL))
        .extracting(h -> h.relation(), h -> h.score())
        .containsExactly(org.assertj.core.groups.Tuple.tuple(flat, 0.0));
    assertThat(count("MATCH (e:Entity {id: 'a-good'}) RETURN e.embedding_dims")).isEqualTo(2);
    assertThat(count("MATCH (e:Entity {id: 'b-zero'}) RETURN e.embedding_dims")).isZero();
  }
}

package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.Tenants;
import dev.engram.extract.OfflineExtractor;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Names;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StorageWithGraph;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The graph store contract, as every {@link GraphStore} must pass it, with exact expected results:
 * round trips, entities found by name or alias, aliases replaced by upserts and removed with their
 * entity, tenant and scope isolation, time views, invalidation that keeps the edge, entity deletion
 * with its edges, relation deletion, relations found by memory id, exact per-scope similarity
 * order, and, through the engine, relations whose provenance is the one message they were extracted
 * from. A backend adds one small subclass implementing {@link #openStore()} (a store with no data)
 * and, if needed, {@link #closeStore(GraphStore)}. Vectors have {@value #DIMENSION} dimensions.
 */
public abstract class GraphStoreContractTest {
  protected static final int DIMENSION = 4;
  protected static final String T1 = "t1";
  protected static final String T2 = "t2";
  protected static final Scope ALICE = Scope.user("alice");
  protected static final Scope ALICE_R1 = Scope.of("alice", null, "r1");
  protected static final Scope ALICE_R2 = Scope.of("alice", null, "r2");
  protected static final Scope BOB = Scope.user("bob");
  protected static final Instant T0 = Instant.parse("2024-01-01T10:00:00.123456789Z");
  protected static final Instant JAN = Instant.parse("2023-01-01T00:00:00Z");
  protected static final Instant JUN = Instant.parse("2023-06-01T00:00:00Z");
  protected static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

  protected GraphStore store;

  /** A new, empty store. */
  protected abstract GraphStore openStore() throws Exception;

  /** Releases what {@link #openStore()} opened. */
  protected void closeStore(GraphStore s) throws Exception {}

  @BeforeEach
  void openGraphStore() throws Exception {
    store = openStore();
  }

  @AfterEach
  void closeGraphStore() throws Exception {
    closeStore(store);
  }

  protected static float[] vec(double... xs) {
    float[] v = new float[DIMENSION];
    double n = 0;
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) xs[i];
      n += xs[i] * xs[i];
    }
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) (v[i] / Math.sqrt(n));
    }
    return v;
  }

  protected static Entity entity(String id, String name, Scope scope, float[] v) {
    return new Entity(id, name, Names.normalize(name), "person", v, 1, T0, T0.plusNanos(1), scope);
  }

  protected static Relation relation(
      String id, Entity s, String name, Entity t, float[] v, Instant validAt, Instant invalidAt) {
    return new Relation(
        id,
        s.id(),
        name,
        t.id(),
        s.name() + " " + name.replace('_', ' ') + " " + t.name(),
        v,
        validAt,
        invalidAt,
        T0,
        invalidAt == null ? null : T0.plusSeconds(5),
        List.of("m-" + id),
        List.of("mem-" + id),
        s.scope());
  }

  private static List<String> ids(List<?> rows) {
    List<String> out = new ArrayList<>();
    for (Object o : rows) {
      if (o instanceof Entity e) {
        out.add(e.id());
      } else if (o instanceof Relation r) {
        out.add(r.id());
      } else if (o instanceof ScoredEntity e) {
        out.add(e.entity().id());
      } else {
        out.add(((ScoredRelation) o).relation().id());
      }
    }
    return out;
  }

  private final Entity alice = entity("e-alice", "Alice", ALICE, vec(1, 0, 0, 0));
  private final Entity beijing = entity("e-beijing", "Beijing", ALICE, vec(0, 1, 0, 0));
  private final Entity shanghai = entity("e-shanghai", "Shanghai", ALICE, vec(0, 1, 1, 0));
  private final Entity acme = entity("e-acme", "Acme Corp.", ALICE, vec(0, 0, 0, 1));
  private final Entity aliceR1 = entity("e-r1-alice", "Alice", ALICE_R1, vec(1, 0, 0, 0));
  private final Entity gym = entity("e-r1-gym", "Gym", ALICE_R1, vec(0, 0, 1, 0));
  private final Relation livesBeijing =
      relation("r1", alice, "lives_in", beijing, vec(1, 1, 0, 0), JAN, JUN);
  private final Relation livesShanghai =
      relation("r2", alice, "lives_in", shanghai, vec(1, 1, 1, 0), JUN, null);
  private final Relation worksAcme =
      relation("r3", alice, "works_at", acme, vec(1, 0, 0, 1), null, null);
  private final Relation goesToGym =
      relation("r5", aliceR1, "goes_to", gym, vec(1, 0, 1, 0), null, null);

  private void seed() {
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(alice, beijing, shanghai, acme, aliceR1, gym),
            List.of(livesBeijing, livesShanghai, worksAcme, goesToGym)));
  }

  @Test
  void entitiesAndRelationsRoundTripExactly() {
    seed();
    assertThat(store.entities(T1, List.of("e-alice", "e-acme", "missing")))
        .containsExactlyInAnyOrder(alice, acme);
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(livesBeijing, livesShanghai, worksAcme);
  }

  @Test
  void entitiesByNameUseTheNormalisedNameInsideTheScope() {
    seed();
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(entity("e-alice-bob", "Alice", BOB, vec(1, 0, 0, 0))), List.of()));
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("alice", "acme corp"))))
        .containsExactlyInAnyOrder("e-alice", "e-acme", "e-r1-alice");
    assertThat(ids(store.entitiesByName(T1, ALICE_R2, List.of("alice", "acme corp")))).isEmpty();
    assertThat(ids(store.entitiesByName(T1, ALICE_R1, List.of("alice", "acme corp"))))
        .containsExactly("e-r1-alice");
    assertThat(ids(store.entitiesByName(T1, BOB, List.of("alice")))).containsExactly("e-alice-bob");
    assertThat(store.entitiesByName(T2, ALICE, List.of("alice"))).isEmpty();
    assertThat(store.entitiesByName(T1, ALICE, List.of())).isEmpty();
  }

  private static Entity aliased(Entity e, String... aliases) {
    return new Entity(
        e.id(),
        e.name(),
        e.normalizedName(),
        e.type(),
        e.embedding(),
        e.mentions(),
        e.createdAt(),
        e.updatedAt(),
        e.scope(),
        List.of(aliases));
  }

  @Test
  void aliasesRoundTripAndFindTheEntityByName() {
    seed();
    Entity ali = aliased(alice, "ali", "al");
    store.apply(T1, GraphChanges.upserts(List.of(ali), List.of()));
    assertThat(store.entities(T1, List.of("e-alice"))).containsExactly(ali);
    assertThat(store.entities(T1, List.of("e-alice")).get(0).aliases())
        .containsExactly("ali", "al");
    assertThat(store.entitiesByName(T1, ALICE, List.of("ali"))).containsExactly(ali);
    // Known by its name and an alias at once, or by two aliases: returned once.
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("ali", "al", "alice", "beijing"))))
        .containsExactlyInAnyOrder("e-alice", "e-r1-alice", "e-beijing");
    assertThat(store.entitiesByName(T1, ALICE, List.of("alicia"))).isEmpty();
    // Relations are untouched by an entity upsert.
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL)))
        .containsExactly("r1", "r2", "r3");
  }

  @Test
  void entitiesByAliasStayInsideTheScopeAndTheTenant() {
    seed();
    Entity gymR1 = aliased(gym, "fitness club");
    Entity aliceBob = aliased(entity("e-alice-bob", "Alice", BOB, vec(1, 0, 0, 0)), "ali");
    store.apply(
        T1, GraphChanges.upserts(List.of(gymR1, aliased(alice, "ali"), aliceBob), List.of()));
    store.apply(T2, GraphChanges.upserts(List.of(aliased(beijing, "fitness club")), List.of()));
    assertThat(ids(store.entitiesByName(T1, ALICE_R1, List.of("fitness club"))))
        .containsExactly("e-r1-gym");
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("fitness club"))))
        .containsExactly("e-r1-gym");
    assertThat(store.entitiesByName(T1, ALICE_R2, List.of("fitness club"))).isEmpty();
    assertThat(store.entitiesByName(T1, BOB, List.of("fitness club"))).isEmpty();
    assertThat(ids(store.entitiesByName(T2, ALICE, List.of("fitness club"))))
        .containsExactly("e-beijing");
    assertThat(ids(store.entitiesByName(T2, ALICE_R1, List.of("fitness club")))).isEmpty();
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("ali")))).containsExactly("e-alice");
    assertThat(ids(store.entitiesByName(T1, BOB, List.of("ali")))).containsExactly("e-alice-bob");
    assertThat(ids(store.entitiesByName(T1, ALICE_R1, List.of("ali")))).isEmpty();
    assertThat(store.entitiesByName(T2, BOB, List.of("ali"))).isEmpty();
  }

  @Test
  void anUpsertReplacesTheAliases() {
    seed();
    store.apply(T1, GraphChanges.upserts(List.of(aliased(alice, "ali", "al")), List.of()));
    Entity renamed = aliased(alice.mentioned(NOW), "lissy");
    store.apply(T1, GraphChanges.upserts(List.of(renamed), List.of()));
    assertThat(store.entities(T1, List.of("e-alice"))).containsExactly(renamed);
    assertThat(store.entitiesByName(T1, ALICE, List.of("ali", "al"))).isEmpty();
    assertThat(store.entitiesByName(T1, ALICE, List.of("lissy"))).containsExactly(renamed);
    // An upsert without aliases (as every caller that never heard of them writes) clears them.
    store.apply(T1, GraphChanges.upserts(List.of(alice), List.of()));
    assertThat(store.entities(T1, List.of("e-alice"))).containsExactly(alice);
    assertThat(store.entities(T1, List.of("e-alice")).get(0).aliases()).isEmpty();
    assertThat(store.entitiesByName(T1, ALICE, List.of("lissy"))).isEmpty();
    // One apply with two upserts of the same entity: the last one's aliases hold.
    store.apply(
        T1, GraphChanges.upserts(List.of(aliased(alice, "a1"), aliased(alice, "a2")), List.of()));
    assertThat(store.entitiesByName(T1, ALICE, List.of("a1"))).isEmpty();
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("a2")))).containsExactly("e-alice");
  }

  @Test
  void deletingAnEntityDeletesItsAliases() {
    seed();
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(aliased(beijing, "peking"), aliased(shanghai, "hu")), List.of()));
    store.apply(T1, GraphChanges.deleting(Set.of("e-beijing")));
    assertThat(store.entitiesByName(T1, ALICE, List.of("peking"))).isEmpty();
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("hu")))).containsExactly("e-shanghai");
    // A new entity under the deleted one's id does not inherit its aliases.
    store.apply(T1, GraphChanges.upserts(List.of(beijing), List.of()));
    assertThat(store.entitiesByName(T1, ALICE, List.of("peking"))).isEmpty();
    assertThat(store.entities(T1, List.of("e-beijing"))).containsExactly(beijing);
  }

  @Test
  void deleteScopeAndResetDeleteAliases() {
    seed();
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(
                aliased(gym, "club"),
                aliased(acme, "acme"),
                aliased(entity("e-bob", "Bob", BOB, vec(1, 0, 0, 0)), "bobby")),
            List.of()));
    store.apply(T2, GraphChanges.upserts(List.of(aliased(acme, "acme")), List.of()));
    store.deleteScope(T1, ALICE_R1);
    assertThat(store.entitiesByName(T1, ALICE, List.of("club"))).isEmpty();
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("acme", "club"))))
        .containsExactly("e-acme");
    store.deleteScope(T1, ALICE);
    assertThat(store.entitiesByName(T1, ALICE, List.of("acme"))).isEmpty();
    assertThat(ids(store.entitiesByName(T1, BOB, List.of("bobby")))).containsExactly("e-bob");
    store.reset(T1);
    assertThat(store.entitiesByName(T1, BOB, List.of("bobby"))).isEmpty();
    assertThat(ids(store.entitiesByName(T2, ALICE, List.of("acme")))).containsExactly("e-acme");
    // The same alias written again after a reset is found once.
    store.apply(T1, GraphChanges.upserts(List.of(aliased(gym, "club")), List.of()));
    assertThat(ids(store.entitiesByName(T1, ALICE, List.of("club")))).containsExactly("e-r1-gym");
  }

  @Test
  void similarEntitiesAreExactPerScopeBestFirst() {
    seed();
    // Many entities of another scope that are closer to the query must not crowd out the scope's
    // own.
    List<Entity> others = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      others.add(entity(String.format("e-bob-%03d", i), "Bob " + i, BOB, vec(1, 0.01 * i, 0, 0)));
    }
    store.apply(T1, GraphChanges.upserts(others, List.of()));
    List<ScoredEntity> hits = store.similarEntities(T1, ALICE, vec(1, 0.9, 0, 0), 4);
    assertThat(ids(hits)).containsExactly("e-alice", "e-r1-alice", "e-beijing", "e-shanghai");
    assertThat(hits.get(0).score())
        .isCloseTo(1 / Math.sqrt(1.81), org.assertj.core.data.Offset.offset(1e-5));
    assertThat(hits.get(3).score())
        .isCloseTo(0.9 / Math.sqrt(1.81) / Math.sqrt(2), org.assertj.core.data.Offset.offset(1e-5));
    assertThat(store.similarEntities(T1, ALICE_R2, vec(0, 0, 0, 1), 5)).isEmpty();
    assertThat(ids(store.similarEntities(T1, ALICE_R1, vec(0, 0, 0, 1), 5)))
        .containsExactly("e-r1-alice", "e-r1-gym");
    assertThat(store.similarEntities(T2, ALICE, vec(1, 0, 0, 0), 5)).isEmpty();
    assertThat(ids(store.similarEntities(T1, BOB, vec(1, 0, 0, 0), 2)))
        .containsExactly("e-bob-000", "e-bob-001");
  }

  @Test
  void similarityTiesAreBrokenById() {
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(
                entity("e-b", "B", ALICE, vec(0, 1, 0, 0)),
                entity("e-a", "A", ALICE, vec(0, 1, 0, 0)),
                entity("e-c", "C", ALICE, vec(0, 1, 0, 0))),
            List.of()));
    assertThat(ids(store.similarEntities(T1, ALICE, vec(0, 1, 0, 0), 2)))
        .containsExactly("e-a", "e-b");
  }

  /**
   * Each check runs twice: on a fresh store, and after similarity searches of the scopes (a store
   * may answer from what those read).
   */
  @Test
  void timeViewsSelectByEventTime() {
    seed();
    timeViewsSelectByEventTimeChecks();
    searchEveryScopeBySimilarity();
    timeViewsSelectByEventTimeChecks();
  }

  private void timeViewsSelectByEventTimeChecks() {
    TimeView current = TimeView.CURRENT.at(NOW);
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), current)))
        .containsExactly("r2", "r3");
    assertThat(
            ids(
                store.relationsOf(
                    T1, ALICE, List.of("e-alice"), TimeView.asOf(JAN.plusSeconds(86_400)))))
        .containsExactly("r1", "r3");
    // validAt is inclusive, invalidAt exclusive: at the instant of the move only the new home
    // holds.
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.asOf(JUN))))
        .containsExactly("r2", "r3");
    assertThat(
            ids(
                store.relationsOf(
                    T1, ALICE, List.of("e-alice"), TimeView.asOf(JAN.minusSeconds(1)))))
        .containsExactly("r3");
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-beijing"), current))).isEmpty();
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-beijing"), TimeView.ALL)))
        .containsExactly("r1");
  }

  /** A similarity search of relations in each scope of the seed, as a graph search makes. */
  private void searchEveryScopeBySimilarity() {
    for (Scope scope : List.of(ALICE, ALICE_R1, ALICE_R2, BOB)) {
      store.similarRelations(T1, scope, vec(1, 1, 0, 0), 2, TimeView.ALL);
      store.similarRelations(T2, scope, vec(1, 1, 0, 0), 2, TimeView.ALL);
    }
  }

  /** Each check runs twice, as in {@link #timeViewsSelectByEventTime}. */
  @Test
  void relationsOfFollowBothDirectionsAndTheScope() {
    seed();
    relationsOfFollowBothDirectionsAndTheScopeChecks();
    searchEveryScopeBySimilarity();
    relationsOfFollowBothDirectionsAndTheScopeChecks();
    // a relation from an entity to itself is found once
    Relation selfLink = relation("r-self", alice, "knows", alice, vec(1, 0, 0, 0), null, null);
    store.apply(T1, GraphChanges.upserts(List.of(), List.of(selfLink)));
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL)))
        .containsExactly("r-self", "r1", "r2", "r3");
    searchEveryScopeBySimilarity();
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL)))
        .containsExactly("r-self", "r1", "r2", "r3");
  }

  private void relationsOfFollowBothDirectionsAndTheScopeChecks() {
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-shanghai", "e-acme"), TimeView.ALL)))
        .containsExactly("r2", "r3");
    assertThat(ids(store.relationsOf(T1, ALICE_R2, List.of("e-alice"), TimeView.ALL))).isEmpty();
    assertThat(ids(store.relationsOf(T1, ALICE_R1, List.of("e-alice"), TimeView.ALL))).isEmpty();
    assertThat(ids(store.relationsOf(T1, ALICE_R1, List.of("e-r1-gym"), TimeView.ALL)))
        .containsExactly("r5");
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-r1-gym"), TimeView.ALL)))
        .containsExactly("r5");
    assertThat(ids(store.relationsOf(T2, ALICE, List.of("e-alice"), TimeView.ALL))).isEmpty();
    assertThat(store.relationsOf(T1, ALICE, List.of(), TimeView.ALL)).isEmpty();
  }

  /**
   * {@link GraphStore#nearestRelationsOf} is {@link GraphStore#relationsOf} ordered by cosine, ties
   * by id, cut to the limit: checked literally, and against the default's sort of {@code
   * relationsOf} for every limit, view and scope, on a fresh store and after similarity searches of
   * the scopes (a store may answer from what those read).
   */
  @Test
  void nearestRelationsOfAreTheNeighbourhoodByCosine() {
    seed();
    float[] q = vec(1, 1, 0, 0);
    List<String> both = List.of("e-alice", "e-r1-gym");
    List<TimeView> views =
        List.of(TimeView.ALL, TimeView.CURRENT.at(NOW), TimeView.asOf(JAN.plusSeconds(86_400)));
    for (int pass = 0; pass < 2; pass++) {
      assertThat(ids(store.nearestRelationsOf(T1, ALICE, both, TimeView.ALL, q, 10)))
          .containsExactly("r1", "r2", "r3", "r5");
      // r3 and r5 are equally near: the smaller id first
      assertThat(ids(store.nearestRelationsOf(T1, ALICE, both, TimeView.ALL, q, 3)))
          .containsExactly("r1", "r2", "r3");
      assertThat(ids(store.nearestRelationsOf(T1, ALICE, both, TimeView.CURRENT.at(NOW), q, 10)))
          .containsExactly("r2", "r3", "r5");
      assertThat(ids(store.nearestRelationsOf(T1, ALICE_R1, both, TimeView.ALL, q, 10)))
          .containsExactly("r5");
      assertThat(store.nearestRelationsOf(T1, ALICE, both, TimeView.ALL, q, 0)).isEmpty();
      assertThat(store.nearestRelationsOf(T1, ALICE, List.of(), TimeView.ALL, q, 5)).isEmpty();
      assertThat(store.nearestRelationsOf(T2, ALICE, both, TimeView.ALL, q, 5)).isEmpty();
      for (Scope scope : List.of(ALICE, ALICE_R1, BOB)) {
        for (TimeView view : views) {
          for (List<String> entities :
              List.of(both, List.of("e-beijing", "e-acme"), List.of("e-shanghai"))) {
            for (float[] vector : List.of(q, vec(0, 0, 1, 1), vec(1, 0, 0, 0))) {
              for (int limit = 0; limit <= 5; limit++) {
                assertThat(store.nearestRelationsOf(T1, scope, entities, view, vector, limit))
                    .containsExactlyElementsOf(
                        GraphStore.nearest(
                            store.relationsOf(T1, scope, entities, view), vector, limit));
              }
            }
          }
        }
      }
      searchEveryScopeBySimilarity();
    }
  }

  /**
   * {@link GraphStore#similarRelationsEach} is {@link GraphStore#similarRelations} for each vector,
   * as ids and scores: for every k, view and scope, ties included, and with no vector at all.
   */
  @Test
  void similarRelationsForManyVectorsAtOnceAreSimilarRelationsForEach() {
    seed();
    // r6 has r2's fact vector: a tie, broken by id
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(),
            List.of(relation("r6", alice, "visits", shanghai, vec(1, 1, 1, 0), null, null))));
    List<float[]> vectors =
        List.of(
            vec(1, 1, 0, 0), vec(0, 0, 1, 1), vec(1, 1, 1, 0), vec(1, 0, 0, 0), vec(0, 1, 0, 1));
    List<TimeView> views = List.of(TimeView.ALL, TimeView.CURRENT.at(NOW), TimeView.asOf(JAN));
    for (String tenant : List.of(T1, T2)) {
      for (Scope scope : List.of(ALICE, ALICE_R1, BOB)) {
        for (TimeView view : views) {
          for (int k = 0; k <= 6; k++) {
            List<List<SearchIndex.Candidate>> each =
                store.similarRelationsEach(tenant, scope, vectors, k, view);
            assertThat(each).hasSameSizeAs(vectors);
            for (int i = 0; i < vectors.size(); i++) {
              assertThat(each.get(i))
                  .containsExactlyElementsOf(
                      store.similarRelations(tenant, scope, vectors.get(i), k, view).stream()
                          .map(sr -> new SearchIndex.Candidate(sr.relation().id(), sr.score()))
                          .toList());
            }
          }
        }
      }
    }
    assertThat(store.similarRelationsEach(T1, ALICE, List.of(), 3, TimeView.ALL)).isEmpty();
    assertThat(ids(store.similarRelations(T1, ALICE, vec(1, 1, 1, 0), 2, TimeView.ALL)))
        .containsExactly("r2", "r6");
  }

  @Test
  void invalidationKeepsTheEdgeAndProvenanceMergesReplaceTheRow() {
    seed();
    Relation invalidated = worksAcme.invalidate(JUN, NOW);
    Relation merged = livesShanghai.withProvenance(List.of("m-9"), List.of("mem-9"));
    store.apply(
        T1, GraphChanges.upserts(List.of(alice.mentioned(NOW)), List.of(invalidated, merged)));
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(livesBeijing, merged, invalidated);
    assertThat(merged.sourceMessageIds()).containsExactly("m-r2", "m-9");
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.CURRENT.at(NOW))))
        .containsExactly("r2");
    assertThat(store.entities(T1, List.of("e-alice")).get(0).mentions()).isEqualTo(2);
  }

  @Test
  void similarRelationsHonourScopeAndTimeView() {
    seed();
    Relation bobs =
        relation(
            "r-bob",
            entity("e-x", "X", BOB, vec(1, 0, 0, 0)),
            "likes",
            entity("e-y", "Y", BOB, vec(0, 1, 0, 0)),
            vec(1, 1, 0, 0),
            null,
            null);
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(
                entity("e-x", "X", BOB, vec(1, 0, 0, 0)), entity("e-y", "Y", BOB, vec(0, 1, 0, 0))),
            List.of(bobs)));
    float[] q = vec(1, 1, 0, 0);
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)))
        .containsExactly("r1", "r2", "r3", "r5");
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, TimeView.CURRENT.at(NOW))))
        .containsExactly("r2", "r3", "r5");
    assertThat(ids(store.similarRelations(T1, ALICE_R1, q, 5, TimeView.ALL))).containsExactly("r5");
    assertThat(ids(store.similarRelations(T1, ALICE, q, 1, TimeView.asOf(JAN))))
        .containsExactly("r1");
    assertThat(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL).get(0).score())
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(ids(store.similarRelations(T1, BOB, q, 5, TimeView.ALL))).containsExactly("r-bob");
    assertThat(store.similarRelations(T2, ALICE, q, 5, TimeView.ALL)).isEmpty();
  }

  @Test
  void deletingAnEntityDeletesItsEdgesOnly() {
    seed();
    store.apply(T1, GraphChanges.deleting(Set.of("e-beijing", "unknown")));
    assertThat(ids(store.entities(T1, List.of("e-alice", "e-beijing", "e-shanghai"))))
        .containsExactlyInAnyOrder("e-alice", "e-shanghai");
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice", "e-beijing"), TimeView.ALL)))
        .containsExactly("r2", "r3");
    assertThat(ids(store.similarRelations(T1, ALICE, vec(1, 1, 0, 0), 5, TimeView.ALL)))
        .containsExactly("r2", "r3", "r5");
  }

  @Test
  void upsertsAndDeletionsOfOneApplyHappenTogether() {
    seed();
    Entity paris = entity("e-paris", "Paris", ALICE, vec(0, 0, 1, 1));
    store.apply(
        T1,
        new GraphChanges(
            List.of(paris),
            List.of(relation("r4", alice, "visited", paris, vec(0, 0, 1, 1), null, null)),
            Set.of("e-shanghai")));
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL)))
        .containsExactly("r1", "r3", "r4");
  }

  @Test
  void relationsFromMemoriesFindEveryViewAndScopeOfTheTenantOnly() {
    seed();
    Relation shared = livesShanghai.withProvenance(List.of("m-9"), List.of("mem-9"));
    store.apply(T1, GraphChanges.upserts(List.of(), List.of(shared)));
    store.apply(T2, GraphChanges.upserts(List.of(alice, beijing), List.of(livesBeijing)));
    // r1 is invalidated, r5 lives in a run of Alice: both are found; the ids are ordered; unknown
    // ids are ignored.
    assertThat(
            store.relationsFromMemories(
                T1, List.of("mem-r5", "mem-9", "mem-r1", "unknown", "mem-9")))
        .containsExactly(livesBeijing, shared, goesToGym);
    assertThat(store.relationsFromMemories(T1, List.of("mem-r2"))).containsExactly(shared);
    assertThat(store.relationsFromMemories(T2, List.of("mem-r1", "mem-r2")))
        .containsExactly(livesBeijing);
    assertThat(store.relationsFromMemories(T2, List.of("mem-9"))).isEmpty();
    assertThat(store.relationsFromMemories(T1, List.of())).isEmpty();
  }

  @Test
  void relationsFromMemoriesFollowEveryWrite() {
    seed();
    // Replacing a row replaces its provenance: the old memory id no longer finds it.
    Relation moved =
        new Relation(
            livesShanghai.id(),
            livesShanghai.sourceId(),
            livesShanghai.name(),
            livesShanghai.targetId(),
            livesShanghai.fact(),
            livesShanghai.factEmbedding(),
            livesShanghai.validAt(),
            null,
            livesShanghai.createdAt(),
            null,
            List.of("m-r2"),
            List.of("mem-new"),
            livesShanghai.scope());
    store.apply(T1, GraphChanges.upserts(List.of(), List.of(moved)));
    assertThat(store.relationsFromMemories(T1, List.of("mem-r2"))).isEmpty();
    assertThat(store.relationsFromMemories(T1, List.of("mem-new"))).containsExactly(moved);
    store.apply(T1, GraphChanges.deleting(Set.of("e-beijing")));
    assertThat(store.relationsFromMemories(T1, List.of("mem-r1"))).isEmpty();
    store.apply(T1, new GraphChanges(List.of(), List.of(), Set.of("r3"), Set.of()));
    assertThat(store.relationsFromMemories(T1, List.of("mem-r3"))).isEmpty();
    store.deleteScope(T1, ALICE_R1);
    assertThat(store.relationsFromMemories(T1, List.of("mem-r5"))).isEmpty();
    assertThat(store.relationsFromMemories(T1, List.of("mem-new"))).containsExactly(moved);
    store.reset(T1);
    assertThat(store.relationsFromMemories(T1, List.of("mem-new"))).isEmpty();
  }

  @Test
  void deletingRelationsRemovesOnlyThoseRowsAndKeepsTheEntities() {
    seed();
    float[] q = vec(1, 1, 0, 0);
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)))
        .containsExactly("r1", "r2", "r3", "r5");
    store.apply(
        T1, new GraphChanges(List.of(), List.of(), Set.of("r1", "r5", "unknown"), Set.of()));
    assertThat(
            store.relationsOf(
                T1, ALICE, List.of("e-alice", "e-beijing", "e-r1-alice"), TimeView.ALL))
        .containsExactly(livesShanghai, worksAcme);
    assertThat(ids(store.entities(T1, List.of("e-alice", "e-beijing", "e-r1-alice", "e-r1-gym"))))
        .containsExactlyInAnyOrder("e-alice", "e-beijing", "e-r1-alice", "e-r1-gym");
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)))
        .containsExactly("r2", "r3");
  }

  @Test
  void oneApplyUpsertsThenDeletesRelationsThenEntities() {
    seed();
    Entity paris = entity("e-paris", "Paris", ALICE, vec(0, 0, 1, 1));
    Relation visited = relation("r4", alice, "visited", paris, vec(0, 0, 1, 1), null, null);
    // The upsert of r3 loses to its deletion; r4 survives; deleting Shanghai takes r2 with it.
    store.apply(
        T1,
        new GraphChanges(
            List.of(paris),
            List.of(visited, worksAcme.invalidate(JUN, NOW)),
            Set.of("r3"),
            Set.of("e-shanghai")));
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(livesBeijing, visited);
    assertThat(ids(store.entities(T1, List.of("e-acme", "e-paris", "e-shanghai"))))
        .containsExactlyInAnyOrder("e-acme", "e-paris");
    assertThat(GraphChanges.NONE.isEmpty()).isTrue();
    assertThat(new GraphChanges(List.of(), List.of(), Set.of("r"), Set.of()).isEmpty()).isFalse();
    assertThat(GraphChanges.deleting(Set.of("e")).deletedRelations()).isEmpty();
  }

  @Test
  void applyingTheSameChangesTwiceLeavesTheSameState() {
    seed();
    Entity paris = aliased(entity("e-paris", "Paris", ALICE, vec(0, 0, 1, 1)), "city of light");
    Relation visited = relation("r4", alice, "visited", paris, vec(0, 0, 1, 1), null, null);
    GraphChanges changes =
        new GraphChanges(
            List.of(paris, alice.mentioned(NOW)),
            List.of(
                visited,
                worksAcme.invalidate(JUN, NOW),
                livesShanghai.withProvenance(List.of("m-x"), List.of("mem-x"))),
            Set.of("r1", "unknown"),
            Set.of("e-r1-gym", "e-unknown"));
    store.apply(T1, changes);
    List<String> all =
        List.of(
            "e-alice", "e-beijing", "e-shanghai", "e-acme", "e-r1-alice", "e-r1-gym", "e-paris");
    List<Entity> entities = store.entities(T1, all);
    List<Relation> relations = store.relationsOf(T1, ALICE, all, TimeView.ALL);
    List<Entity> byAlias = store.entitiesByName(T1, ALICE, List.of("city of light"));
    List<Relation> byMemory =
        store.relationsFromMemories(T1, List.of("mem-x", "mem-r3", "mem-r5", "mem-r4"));

    store.apply(T1, changes);

    assertThat(store.entities(T1, all)).containsExactlyInAnyOrderElementsOf(entities);
    assertThat(store.relationsOf(T1, ALICE, all, TimeView.ALL))
        .containsExactlyElementsOf(relations);
    assertThat(store.entitiesByName(T1, ALICE, List.of("city of light")))
        .containsExactlyElementsOf(byAlias);
    assertThat(store.relationsFromMemories(T1, List.of("mem-x", "mem-r3", "mem-r5", "mem-r4")))
        .containsExactlyElementsOf(byMemory);
    assertThat(ids(relations)).containsExactly("r2", "r3", "r4");
    assertThat(ids(entities))
        .containsExactlyInAnyOrder(
            "e-alice", "e-beijing", "e-shanghai", "e-acme", "e-r1-alice", "e-paris");
    assertThat(ids(byMemory)).containsExactly("r2", "r3", "r4");
    assertThat(ids(store.similarEntities(T1, ALICE, vec(0, 0, 1, 1), 3)))
        .containsExactly("e-paris", "e-acme", "e-shanghai");
  }

  @Test
  void deleteScopeRemovesOnlyThatScopeAndCountsEntities() {
    seed();
    store.apply(
        T1, GraphChanges.upserts(List.of(entity("e-bob", "Bob", BOB, vec(1, 0, 0, 0))), List.of()));
    store.apply(
        T2,
        GraphChanges.upserts(
            List.of(entity("e-alice", "Alice", ALICE, vec(1, 0, 0, 0))), List.of()));
    assertThat(store.deleteScope(T1, ALICE_R1)).isEqualTo(2);
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice", "e-r1-gym"), TimeView.ALL)))
        .containsExactly("r1", "r2", "r3");
    assertThat(ids(store.entities(T1, List.of("e-alice", "e-r1-alice"))))
        .containsExactly("e-alice");
    assertThat(store.deleteScope(T1, ALICE)).isEqualTo(4);
    assertThat(store.entities(T1, List.of("e-alice", "e-beijing", "e-shanghai", "e-acme")))
        .isEmpty();
    assertThat(store.similarRelations(T1, ALICE, vec(1, 1, 0, 0), 5, TimeView.ALL)).isEmpty();
    assertThat(ids(store.entities(T1, List.of("e-bob")))).containsExactly("e-bob");
    assertThat(ids(store.entities(T2, List.of("e-alice")))).containsExactly("e-alice");
    assertThat(store.deleteScope(T1, ALICE)).isZero();
  }

  @Test
  void resetClearsOneTenant() {
    seed();
    store.apply(
        T2,
        GraphChanges.upserts(
            List.of(entity("e-alice", "Alice", ALICE, vec(1, 0, 0, 0))), List.of()));
    store.reset(T1);
    assertThat(store.entities(T1, List.of("e-alice", "e-acme"))).isEmpty();
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL)).isEmpty();
    assertThat(store.similarEntities(T1, ALICE, vec(1, 0, 0, 0), 5)).isEmpty();
    assertThat(ids(store.entities(T2, List.of("e-alice")))).containsExactly("e-alice");
    seed();
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL)))
        .containsExactly("r1", "r2", "r3");
  }

  @Test
  void sameIdsInTwoTenantsAreIndependent() {
    seed();
    Entity other =
        new Entity("e-alice", "Alicia", "alicia", "person", vec(0, 0, 1, 0), 3, T0, T0, ALICE);
    store.apply(T2, GraphChanges.upserts(List.of(other), List.of()));
    assertThat(store.entities(T2, List.of("e-alice"))).containsExactly(other);
    assertThat(store.entities(T1, List.of("e-alice"))).containsExactly(alice);
  }

  @Test
  void similarityReadsSeeEveryLaterWrite() {
    seed();
    float[] q = vec(1, 1, 0, 0);
    TimeView now = TimeView.CURRENT.at(NOW);
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, now))).containsExactly("r2", "r3", "r5");
    assertThat(ids(store.similarEntities(T1, ALICE, vec(0, 0, 1, 1), 1))).containsExactly("e-acme");
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(entity("e-new", "New", ALICE, vec(0, 0, 1, 1))),
            List.of(
                livesShanghai.invalidate(NOW.minusSeconds(1), NOW),
                relation("r6", alice, "likes", beijing, vec(1, 1, 0, 0), null, null))));
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, now))).containsExactly("r6", "r3", "r5");
    assertThat(ids(store.similarEntities(T1, ALICE, vec(0, 0, 1, 1), 1))).containsExactly("e-new");
    // A write in a narrower scope is seen by the wider scope that contains it.
    assertThat(ids(store.similarEntities(T1, BOB, vec(0, 0, 1, 1), 1))).isEmpty();
    store.apply(
        T1,
        GraphChanges.upserts(
            List.of(entity("e-r1-new", "Newer", ALICE_R1, vec(0, 0, 1, 1.01))), List.of()));
    assertThat(ids(store.similarEntities(T1, ALICE, vec(0, 0, 1, 1.01), 1)))
        .containsExactly("e-r1-new");
    assertThat(ids(store.similarEntities(T1, BOB, vec(0, 0, 1, 1), 1))).isEmpty();
    store.apply(T1, GraphChanges.deleting(Set.of("e-beijing")));
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, now))).containsExactly("r3", "r5");
    store.deleteScope(T1, ALICE_R1);
    assertThat(ids(store.similarRelations(T1, ALICE, q, 5, now))).containsExactly("r3");
    assertThat(ids(store.similarEntities(T1, ALICE, vec(0, 0, 1, 1.01), 1)))
        .containsExactly("e-new");
    store.reset(T1);
    assertThat(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)).isEmpty();
    assertThat(store.similarEntities(T1, ALICE, q, 5)).isEmpty();
  }

  /**
   * Relations read before a write (which a store may keep) are never served after it: an upsert, a
   * relation deletion, an entity deletion that takes its edges, a scope deletion and a reset are
   * each seen whole by the next read, by entity and by similarity.
   */
  @Test
  void relationReadsSeeEveryLaterWrite() {
    seed();
    float[] q = vec(1, 1, 0, 0);
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(livesBeijing, livesShanghai, worksAcme);
    assertThat(relations(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)))
        .containsExactlyInAnyOrder(livesBeijing, livesShanghai, worksAcme, goesToGym);

    Relation merged = livesShanghai.withProvenance(List.of("m-9"), List.of("mem-9"));
    Relation ended = worksAcme.invalidate(JUN, NOW);
    store.apply(T1, GraphChanges.upserts(List.of(), List.of(merged, ended)));
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(livesBeijing, merged, ended);
    assertThat(relations(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)))
        .containsExactlyInAnyOrder(livesBeijing, merged, ended, goesToGym);
    assertThat(ids(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.CURRENT.at(NOW))))
        .containsExactly("r2");

    store.apply(T1, new GraphChanges(List.of(), List.of(), Set.of("r1"), Set.of()));
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(merged, ended);

    store.apply(T1, GraphChanges.deleting(Set.of("e-acme")));
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice", "e-acme"), TimeView.ALL))
        .containsExactly(merged);
    assertThat(relations(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)))
        .containsExactlyInAnyOrder(merged, goesToGym);

    assertThat(store.relationsOf(T1, ALICE_R1, List.of("e-r1-gym"), TimeView.ALL))
        .containsExactly(goesToGym);
    store.deleteScope(T1, ALICE_R1);
    assertThat(store.relationsOf(T1, ALICE, List.of("e-r1-gym"), TimeView.ALL)).isEmpty();
    assertThat(relations(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)))
        .containsExactly(merged);

    store.reset(T1);
    assertThat(store.relationsOf(T1, ALICE, List.of("e-alice"), TimeView.ALL)).isEmpty();
    assertThat(store.similarRelations(T1, ALICE, q, 5, TimeView.ALL)).isEmpty();
  }

  private static List<Relation> relations(List<ScoredRelation> scored) {
    return scored.stream().map(ScoredRelation::relation).toList();
  }

  /**
   * Through the engine on this store (memories in the reference backend, the graph here): each
   * relation of one add of several messages names only the message it was extracted from, and only
   * the memories of that message.
   */
  @Test
  void relationsOfAMultiMessageAddNameOnlyTheirOwnMessage() throws Exception {
    Scope conv = Scope.user("provenance");
    try (Memory memory =
        Engram.builder()
            .storage(StorageWithGraph.of(InMemoryStorage.create(), notClosing(store)))
            .embedder(new HashEmbedder(DIMENSION, "hash-" + DIMENSION))
            .inference(OfflineExtractor.create())
            .graph(OfflineGraphExtractor.create())
            .build()) {
      AddResult added =
          memory.add(
              AddRequest.builder(conv)
                  .messages(
                      List.of(
                          new Message(
                              Role.USER, "I went to Paris with Melanie.", "Caroline", JUN, "d1:1"),
                          new Message(
                              Role.USER, "I painted a lake in Oslo.", "Melanie", JUN, "d1:2"),
                          new Message(
                              Role.USER, "Jon opened a bakery in Rome.", "Caroline", JUN, "d1:3")))
                  .build());
      // Caroline, Paris and Melanie (three pairs from d1:1), Melanie and Oslo (d1:2), Caroline, Jon
      // and Rome (d1:3).
      List<GraphRelation> relations = memory.graphAround(conv, "melanie", 3, TimeView.ALL);
      assertThat(relations).hasSize(7);
      assertThat(relations)
          .extracting(GraphRelation::fact)
          .containsOnly(
              "Caroline went to Paris with Melanie.",
              "Melanie painted a lake in Oslo.",
              "Jon opened a bakery in Rome.");
      assertThat(added.relations().orElseThrow().added()).hasSize(7);
      for (GraphRelation r : relations) {
        String expected =
            r.fact().startsWith("Caroline")
                ? "d1:1"
                : r.fact().startsWith("Melanie") ? "d1:2" : "d1:3";
        assertThat(r.sourceIds()).as(r.fact()).containsExactly(expected);
        assertThat(r.memoryIds()).as(r.fact()).hasSize(1);
        assertThat(memory.get(r.memoryIds().get(0)).orElseThrow().sourceIds())
            .containsExactly(expected);
      }
      // The same provenance in the add's report and in the store itself.
      assertThat(added.relations().orElseThrow().added())
          .allSatisfy(r -> assertThat(r.sourceIds()).hasSize(1));
      assertThat(store.relationsFromMemories(Tenants.DEFAULT, relations.get(0).memoryIds()))
          .allSatisfy(
              r ->
                  assertThat(r.sourceMessageIds())
                      .containsExactlyElementsOf(relations.get(0).sourceIds()));
    } finally {
      store.reset(Tenants.DEFAULT);
    }
  }

  /**
   * The store without {@link java.io.Closeable}: the engine's close must not close it, the test
   * does.
   */
  private static GraphStore notClosing(GraphStore s) {
    return (GraphStore)
        Proxy.newProxyInstance(
            GraphStore.class.getClassLoader(),
            new Class<?>[] {GraphStore.class},
            (proxy, method, args) -> {
              try {
                return method.invoke(s, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }
}

package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Names;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link GraphCache}'s relations: what it keeps, what a write drops (the relations it upserts or
 * deletes, and those of the entities it deletes), what a read racing a write may not keep, the
 * budget; and that {@link SqliteGraphStore} serves repeated reads from it.
 */
class GraphCacheTest extends SqliteStoreTestCase {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant T0 = Instant.parse("2024-01-01T10:00:00Z");
  private static final float[] Q = {1, 1, 0, 0};

  private final GraphCache cache = new GraphCache(1L << 20);
  private final Entity alice = entity("e-alice", "Alice", new float[] {1, 0, 0, 0});
  private final Entity tea = entity("e-tea", "Tea", new float[] {0, 1, 0, 0});
  private final Entity paris = entity("e-paris", "Paris", new float[] {0, 0, 1, 0});
  private final Relation likesTea = relation("r1", alice, "likes", tea, "Alice likes tea");
  private final Relation livesInParis =
      relation("r2", alice, "lives_in", paris, "Alice lives in Paris");

  @Test
  void keepsRelationsByTenant() {
    cache.putRelations("t1", cache.version("t1"), List.of(likesTea, livesInParis));
    assertThat(cache.relations("t1", List.of("r1", "r2", "r3"))).containsOnlyKeys("r1", "r2");
    assertThat(cache.relations("t1", List.of("r1")).get("r1")).isSameAs(likesTea);
    assertThat(cache.relations("t2", List.of("r1"))).isEmpty();
  }

  @Test
  void aWriteDropsWhatItChangesAndWhatWasReadBeforeItIsNotKept() {
    long before = cache.version("t1");
    Relation paristea = relation("r3", paris, "serves", tea, "Paris serves tea");
    cache.putRelations("t1", before, List.of(likesTea, livesInParis, paristea));
    cache.putRelations("t2", cache.version("t2"), List.of(likesTea));

    cache.invalidate("t1", GraphChanges.upserts(List.of(), List.of(likesTea)));
    assertThat(cache.relations("t1", List.of("r1", "r2", "r3"))).containsOnlyKeys("r2", "r3");
    assertThat(cache.relations("t2", List.of("r1"))).containsOnlyKeys("r1");

    // Rows read while the write ran (under the version before it) may hold what it replaced.
    cache.putRelations("t1", before, List.of(likesTea));
    assertThat(cache.relations("t1", List.of("r1"))).isEmpty();

    cache.invalidate("t1", new GraphChanges(List.of(), List.of(), Set.of("r2"), Set.of()));
    assertThat(cache.relations("t1", List.of("r2", "r3"))).containsOnlyKeys("r3");

    // Deleting an entity deletes its edges, whichever end it is.
    cache.putRelations("t1", cache.version("t1"), List.of(likesTea, livesInParis));
    cache.invalidate("t1", GraphChanges.deleting(Set.of("e-paris")));
    assertThat(cache.relations("t1", List.of("r1", "r2", "r3"))).containsOnlyKeys("r1");
    assertThat(cache.relations("t2", List.of("r1"))).containsOnlyKeys("r1");

    cache.invalidate("t1");
    assertThat(cache.relations("t1", List.of("r1"))).isEmpty();
    assertThat(cache.relations("t2", List.of("r1"))).containsOnlyKeys("r1");
  }

  @Test
  void aZeroBudgetKeepsNothingAndTheLeastRecentlyUsedGoBeyondTheBudget() {
    GraphCache none = new GraphCache(0);
    none.putRelations("t1", none.version("t1"), List.of(likesTea));
    assertThat(none.relations("t1", List.of("r1"))).isEmpty();

    GraphCache one = new GraphCache(1_000);
    one.putRelations("t1", one.version("t1"), List.of(likesTea));
    one.putRelations("t1", one.version("t1"), List.of(livesInParis));
    assertThat(one.relations("t1", List.of("r1", "r2"))).containsOnlyKeys("r2");
  }

  /**
   * The store reads a relation's row once: a change made to the file behind its back (which the
   * store, its file's only writer, never expects) is not seen by the reads after the first, by
   * entity or by similarity, until the store's own write of that relation.
   */
  @Test
  void theStoreReadsARelationOnceUntilItWritesIt() throws Exception {
    SqliteGraphStore graph = store.graph();
    graph.apply(
        "t1", GraphChanges.upserts(List.of(alice, tea, paris), List.of(likesTea, livesInParis)));
    assertThat(graph.relationsOf("t1", ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(likesTea, livesInParis);

    SqliteFiles.exec(store.file(), "UPDATE graph_relations SET fact = 'behind its back'");
    assertThat(graph.relationsOf("t1", ALICE, List.of("e-alice"), TimeView.ALL))
        .containsExactly(likesTea, livesInParis);
    assertThat(graph.similarRelations("t1", ALICE, Q, 2, TimeView.ALL))
        .extracting(ScoredRelation::relation)
        .containsExactlyInAnyOrder(likesTea, livesInParis);

    Relation likesGreenTea = relation("r1", alice, "likes", tea, "Alice likes green tea");
    graph.apply("t1", GraphChanges.upserts(List.of(), List.of(likesGreenTea)));
    assertThat(graph.relationsOf("t1", ALICE, List.of("e-alice"), TimeView.ALL))
        .extracting(Relation::fact)
        .containsExactly("Alice likes green tea", "Alice lives in Paris");
  }

  @Test
  void aStoreWithoutBudgetReadsEveryRelationEachTime() throws Exception {
    try (SqliteMemoryStore uncached =
        SqliteMemoryStore.open(dir.resolve("uncached.db"), Durability.NORMAL, 0)) {
      SqliteGraphStore graph = uncached.graph();
      graph.apply("t1", GraphChanges.upserts(List.of(alice, tea), List.of(likesTea)));
      assertThat(graph.relationsOf("t1", ALICE, List.of("e-alice"), TimeView.ALL))
          .containsExactly(likesTea);
      SqliteFiles.exec(uncached.file(), "UPDATE graph_relations SET fact = 'behind its back'");
      assertThat(graph.relationsOf("t1", ALICE, List.of("e-alice"), TimeView.ALL))
          .extracting(Relation::fact)
          .containsExactly("behind its back");
    }
  }

  private static Entity entity(String id, String name, float[] v) {
    return new Entity(id, name, Names.normalize(name), "thing", v, 1, T0, T0, ALICE);
  }

  private static Relation relation(String id, Entity s, String name, Entity t, String fact) {
    float[] v = new float[4];
    for (int i = 0; i < 4; i++) {
      v[i] = s.embeddingView()[i] + t.embeddingView()[i];
    }
    return new Relation(
        id,
        s.id(),
        name,
        t.id(),
        fact,
        v,
        null,
        null,
        T0,
        null,
        List.of("m-" + id),
        List.of("mem-" + id),
        ALICE);
  }
}

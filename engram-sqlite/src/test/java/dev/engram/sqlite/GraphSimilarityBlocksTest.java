package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Names;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.SearchIndex;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SqliteGraphStore#similarRelationsEach} over a scope of several blocks of rows, some of
 * them ended, is {@link SqliteGraphStore#similarRelations} for each vector; and {@link
 * SqliteGraphStore#nearestRelationsOf} is the default's sort of {@code relationsOf}.
 */
class GraphSimilarityBlocksTest extends SqliteStoreTestCase {
  private static final Scope SCOPE = Scope.user("u");
  private static final Instant T0 = Instant.parse("2024-01-01T10:00:00Z");
  private static final int DIMENSION = 16;

  @Test
  void manyVectorsAtOnceOverSeveralBlocksAreEachVectorsSearch() {
    SplittableRandom random = new SplittableRandom(3);
    List<Entity> entities = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      entities.add(
          new Entity(
              "e" + i,
              "E" + i,
              Names.normalize("E" + i),
              "thing",
              vector(random),
              1,
              T0,
              T0,
              SCOPE));
    }
    List<Relation> relations = new ArrayList<>();
    for (int i = 0; i < 700; i++) {
      float[] v = i % 50 == 7 ? relations.get(i - 1).factEmbedding() : vector(random); // ties
      relations.add(
          new Relation(
              String.format("r%04d", (i * 389) % 700),
              "e" + random.nextInt(40),
              "links",
              "e" + random.nextInt(40),
              "fact " + i,
              v,
              null,
              i % 3 == 0 ? T0.plusSeconds(i) : null,
              T0,
              null,
              List.of("m" + i),
              List.of("mem" + i),
              SCOPE));
    }
    SqliteGraphStore graph = store.graph();
    graph.apply("t", GraphChanges.upserts(entities, relations));
    List<float[]> vectors = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      vectors.add(vector(random));
    }
    vectors.add(relations.get(6).factEmbedding());
    for (TimeView view : List.of(TimeView.ALL, TimeView.CURRENT.at(T0.plusSeconds(350)))) {
      for (int k : new int[] {1, 47, 800}) {
        List<List<SearchIndex.Candidate>> each =
            graph.similarRelationsEach("t", SCOPE, vectors, k, view);
        for (int i = 0; i < vectors.size(); i++) {
          assertThat(each.get(i))
              .containsExactlyElementsOf(
                  graph.similarRelations("t", SCOPE, vectors.get(i), k, view).stream()
                      .map(sr -> new SearchIndex.Candidate(sr.relation().id(), sr.score()))
                      .toList());
        }
      }
      List<String> some = List.of("e1", "e2", "e3", "e30");
      for (int limit : new int[] {1, 10, 200}) {
        assertThat(graph.nearestRelationsOf("t", SCOPE, some, view, vectors.get(0), limit))
            .containsExactlyElementsOf(
                dev.engram.spi.GraphStore.nearest(
                    graph.relationsOf("t", SCOPE, some, view), vectors.get(0), limit));
      }
    }
  }

  private static float[] vector(SplittableRandom random) {
    float[] v = new float[DIMENSION];
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) (random.nextDouble() * 2 - 1);
    }
    return v;
  }
}

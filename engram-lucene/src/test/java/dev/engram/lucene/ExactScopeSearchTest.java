package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.VectorMath;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scope's dense search is exact: with more memories in the scope than k, but no more than {@link
 * ScopedKnnQuery#EXACT_LIMIT}, every one of them is scored, so the result is the true nearest k,
 * whatever the HNSW graph would have found (random 256-dimension vectors, where a graph walk for k
 * = 150 among the 2,850 memories of the scope misses some: this test fails with the graph walk).
 */
class ExactScopeSearchTest {
  private static final int DIM = 256;

  @TempDir Path dir;

  @Test
  void aScopeSmallerThanTheExactLimitGetsItsTrueNearestNeighbours() {
    Random random = new Random(7);
    List<float[]> vectors = new ArrayList<>();
    List<Integer> alice = new ArrayList<>();
    List<IndexOp> ops = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      float[] v = new float[DIM];
      for (int d = 0; d < DIM; d++) {
        v[d] = (float) random.nextGaussian();
      }
      v = Docs.unit(v);
      vectors.add(v);
      String user = i % 20 == 0 ? "bob" : "alice"; // the restriction admits 95% of the documents
      if (user.equals("alice")) {
        alice.add(i);
      }
      ops.add(
          new IndexOp.Upsert(
              Docs.stored("t", Docs.item("m" + i, "note " + i, user, null, Map.of(), null), v)));
    }
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, DIM)) {
      index.apply(ops, 1, 1);
      for (int q = 0; q < 10; q++) {
        float[] query = vectors.get(random.nextInt(vectors.size())).clone();
        query[0] += 0.5f;
        float[] target = Docs.unit(query);
        List<String> expected = new ArrayList<>();
        alice.sort(
            Comparator.comparingDouble((Integer i) -> -VectorMath.cosine(target, vectors.get(i))));
        for (int i : alice.subList(0, 150)) {
          expected.add("m" + i);
        }
        List<Candidate> got =
            index.dense(Docs.query("t", Scope.user("alice")), IndexField.TEXT, target, 150);
        // as a set: near-ties among float scores may swap places
        assertThat(Docs.ids(got)).as("query %d", q).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }
}

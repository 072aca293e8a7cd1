package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.junit.jupiter.api.Test;

/**
 * {@link TargetScores} gives the scores of Lucene's own similarity calls to the bit, at widths
 * below and above Lucene's unrolling and with a rest after the steps of four.
 */
class TargetScoresTest {
  private static final int[] WIDTHS = {4, 16, 30, 33, 35, 64, 384, 385, 1_026};

  private static List<float[]> vectors(Random random, int n, int dimension) {
    List<float[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      float[] v = new float[dimension];
      for (int d = 0; d < dimension; d++) {
        v[d] = (float) random.nextGaussian();
      }
      out.add(Docs.unit(v));
    }
    return out;
  }

  private static void assertLucenesScores(
      TargetScores scores,
      VectorSimilarityFunction similarity,
      List<float[]> targets,
      List<float[]> docs) {
    float[] out = new float[targets.size()];
    for (float[] doc : docs) {
      scores.scores(doc, out);
      for (int t = 0; t < targets.size(); t++) {
        assertThat(Float.floatToRawIntBits(out[t]))
            .as("%s, width %d, target %d", similarity, doc.length, t)
            .isEqualTo(Float.floatToRawIntBits(similarity.compare(targets.get(t), doc)));
      }
    }
  }

  @Test
  void everySimilarityScoresAsLuceneDoes() {
    Random random = new Random(1);
    for (int width : WIDTHS) {
      List<float[]> targets = vectors(random, 37, width);
      List<float[]> docs = vectors(random, 20, width);
      for (VectorSimilarityFunction similarity :
          List.of(VectorSimilarityFunction.DOT_PRODUCT, VectorSimilarityFunction.COSINE)) {
        assertLucenesScores(TargetScores.of(similarity, targets), similarity, targets, docs);
      }
    }
  }

  @Test
  void theDotProductsSummedTogetherAreLucenesOnItsScalarImplementation() {
    // Lucene 9.12 computes dot products with the JDK's vector API on JDK 20 and later when the
    // incubator module is present; on JDK 17 with its scalar implementation, which the sums follow
    assumeTrue(Runtime.version().feature() < 20);
    Random random = new Random(2);
    for (int width : WIDTHS) {
      List<float[]> targets = vectors(random, 53, width);
      assertLucenesScores(
          TargetScores.batched(targets),
          VectorSimilarityFunction.DOT_PRODUCT,
          targets,
          vectors(random, 20, width));
    }
  }
}

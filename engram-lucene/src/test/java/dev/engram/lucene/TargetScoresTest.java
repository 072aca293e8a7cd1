package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.Constants;
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

  /**
   * Lucene 9.12's scalar dot product ({@code DefaultVectorUtilSupport}, what it runs on JDK 17):
   * four running sums in steps of four above 32 dimensions, then the rest, fused where Lucene
   * fuses.
   */
  private static float scalarDotProduct(float[] a, float[] b) {
    float res = 0f;
    int i = 0;
    if (a.length > 32) {
      float acc1 = 0;
      float acc2 = 0;
      float acc3 = 0;
      float acc4 = 0;
      int upper = a.length & ~3;
      for (; i < upper; i += 4) {
        acc1 = fma(a[i], b[i], acc1);
        acc2 = fma(a[i + 1], b[i + 1], acc2);
        acc3 = fma(a[i + 2], b[i + 2], acc3);
        acc4 = fma(a[i + 3], b[i + 3], acc4);
      }
      res += acc1 + acc2 + acc3 + acc4;
    }
    for (; i < a.length; i++) {
      res = fma(a[i], b[i], res);
    }
    return res;
  }

  private static float fma(float a, float b, float c) {
    return Constants.HAS_FAST_SCALAR_FMA ? Math.fma(a, b, c) : a * b + c;
  }

  @Test
  void theDotProductsSummedTogetherAreLucenesScalarSumsToTheBit() {
    Random random = new Random(2);
    for (int width : WIDTHS) {
      List<float[]> targets = vectors(random, 53, width);
      float[] out = new float[targets.size()];
      for (float[] doc : vectors(random, 20, width)) {
        TargetScores.batched(targets).scores(doc, out);
        for (int t = 0; t < targets.size(); t++) {
          float expected = Math.max((1 + scalarDotProduct(targets.get(t), doc)) / 2, 0);
          assertThat(Float.floatToRawIntBits(out[t]))
              .as("width %d, target %d", width, t)
              .isEqualTo(Float.floatToRawIntBits(expected));
        }
      }
    }
  }

  /** Blocks of up to four documents, against one target and against many. */
  @Test
  void blocksOfDocumentsAreScoredAsLuceneDoes() {
    Random random = new Random(3);
    for (int width : WIDTHS) {
      for (int n : new int[] {1, 2, 37}) {
        List<float[]> targets = vectors(random, n, width);
        List<float[]> docs = vectors(random, TargetScores.BLOCK, width);
        for (int count = 0; count <= TargetScores.BLOCK; count++) {
          float[][] block = docs.subList(0, count).toArray(new float[0][]);
          for (VectorSimilarityFunction similarity :
              List.of(VectorSimilarityFunction.DOT_PRODUCT, VectorSimilarityFunction.COSINE)) {
            float[][] out = new float[TargetScores.BLOCK][n];
            TargetScores.of(similarity, targets).scores(block, count, out);
            for (int j = 0; j < count; j++) {
              for (int t = 0; t < n; t++) {
                assertThat(Float.floatToRawIntBits(out[j][t]))
                    .as(
                        "%s, width %d, %d targets, %d documents, %d %d",
                        similarity, width, n, count, j, t)
                    .isEqualTo(
                        Float.floatToRawIntBits(similarity.compare(targets.get(t), block[j])));
              }
            }
          }
          float[][] summed = new float[TargetScores.BLOCK][n]; // whether or not Lucene agrees
          TargetScores.batched(targets).scores(block, count, summed);
          for (int j = 0; j < count; j++) {
            for (int t = 0; t < n; t++) {
              float expected = Math.max((1 + scalarDotProduct(targets.get(t), block[j])) / 2, 0);
              assertThat(Float.floatToRawIntBits(summed[j][t]))
                  .as("width %d, %d targets, %d documents, %d %d", width, n, count, j, t)
                  .isEqualTo(Float.floatToRawIntBits(expected));
            }
          }
        }
      }
    }
  }

  @Test
  void aBlockHoldsAtMostFourDocuments() {
    List<float[]> docs = vectors(new Random(4), TargetScores.BLOCK + 1, 8);
    TargetScores scores = TargetScores.of(VectorSimilarityFunction.DOT_PRODUCT, docs.subList(0, 1));
    float[][] block = docs.toArray(new float[0][]);
    assertThatThrownBy(() -> scores.scores(block, block.length, new float[block.length][1]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 4 documents");
  }
}

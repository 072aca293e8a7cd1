package dev.engram.lucene;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.Constants;

/**
 * Lucene's similarity of one document vector to each of many targets: the score {@link
 * VectorSimilarityFunction#compare} gives, to the bit. For {@link
 * VectorSimilarityFunction#DOT_PRODUCT} the targets are held dimension by dimension and every
 * target's dot product advances together, one dimension at a time, which the JIT compiler turns
 * into vector instructions; each target's sums are still added in the order of Lucene's scalar dot
 * product (four running sums over the dimensions in steps of four, then the rest one by one, fused
 * multiply-adds where Lucene uses them), so the floats are the same. Where Lucene computes them
 * otherwise (a vectorised implementation on a newer JDK, another similarity), a first check per
 * dimension finds the difference and each score is Lucene's own call. Holds its running sums: one
 * instance per pass, on one thread.
 */
final class TargetScores {
  /** Below this width Lucene's dot product keeps a single running sum. */
  private static final int UNROLLED_ABOVE = 32;

  /**
   * Random targets, each scored against four random vectors and compared with Lucene's own scores,
   * before the batched sums are trusted at a width.
   */
  private static final int CHECKS = 64;

  private static final Map<Integer, Boolean> AGREES = new ConcurrentHashMap<>();

  private final VectorSimilarityFunction similarity;
  private final List<float[]> targets;
  private final int dimension;

  /**
   * {@code byDimension[i][t]} is target {@code t}'s value at dimension {@code i}; empty where each
   * score is Lucene's own call.
   */
  private final float[][] byDimension;

  private final float[] sum1;
  private final float[] sum2;
  private final float[] sum3;
  private final float[] sum4;
  private final float[] dots;

  private TargetScores(
      VectorSimilarityFunction similarity, List<float[]> targets, boolean batched) {
    this.similarity = similarity;
    this.targets = targets;
    this.dimension = targets.get(0).length;
    int n = targets.size();
    this.byDimension = batched ? new float[dimension][n] : new float[0][];
    if (batched) {
      for (int t = 0; t < n; t++) {
        float[] target = targets.get(t);
        for (int i = 0; i < dimension; i++) {
          byDimension[i][t] = target[i];
        }
      }
    }
    int width = batched ? n : 0;
    sum1 = new float[width];
    sum2 = new float[width];
    sum3 = new float[width];
    sum4 = new float[width];
    dots = new float[width];
  }

  /**
   * Dot-product scores against {@code targets} always summed together, whether or not they agree
   * with Lucene's here: for the check and its test.
   */
  static TargetScores batched(List<float[]> targets) {
    return new TargetScores(VectorSimilarityFunction.DOT_PRODUCT, targets, true);
  }

  /** Scores against {@code targets} (non-empty, all of one dimension) by {@code similarity}. */
  static TargetScores of(VectorSimilarityFunction similarity, List<float[]> targets) {
    int dimension = targets.get(0).length;
    boolean batched =
        similarity == VectorSimilarityFunction.DOT_PRODUCT
            && AGREES.computeIfAbsent(dimension, TargetScores::agrees);
    return new TargetScores(similarity, targets, batched);
  }

  /** {@code out[t]} = {@code similarity.compare(targets[t], vector)} for every target. */
  void scores(float[] vector, float[] out) {
    if (byDimension.length == 0) {
      for (int t = 0; t < out.length; t++) {
        out[t] = similarity.compare(targets.get(t), vector);
      }
      return;
    }
    dotProducts(vector);
    for (int t = 0; t < out.length; t++) {
      out[t] = Math.max((1 + dots[t]) / 2, 0); // Lucene's DOT_PRODUCT score
    }
  }

  /** Every target's dot product with {@code b} into {@link #dots}, summed as Lucene sums it. */
  private void dotProducts(float[] b) {
    int n = dots.length;
    int i = 0;
    if (dimension > UNROLLED_ABOVE) {
      Arrays.fill(sum1, 0f);
      Arrays.fill(sum2, 0f);
      Arrays.fill(sum3, 0f);
      Arrays.fill(sum4, 0f);
      int upper = dimension & ~3;
      for (; i < upper; i += 4) {
        accumulate(byDimension[i], b[i], sum1, n);
        accumulate(byDimension[i + 1], b[i + 1], sum2, n);
        accumulate(byDimension[i + 2], b[i + 2], sum3, n);
        accumulate(byDimension[i + 3], b[i + 3], sum4, n);
      }
      for (int t = 0; t < n; t++) {
        dots[t] = 0f + (sum1[t] + sum2[t] + sum3[t] + sum4[t]);
      }
    } else {
      Arrays.fill(dots, 0f);
    }
    for (; i < dimension; i++) {
      accumulate(byDimension[i], b[i], dots, n);
    }
  }

  /** {@code sums[t] += a[t] * b} for every target, fused where Lucene fuses it. */
  private static void accumulate(float[] a, float b, float[] sums, int n) {
    if (Constants.HAS_FAST_SCALAR_FMA) {
      for (int t = 0; t < n; t++) {
        sums[t] = Math.fma(a[t], b, sums[t]);
      }
    } else {
      for (int t = 0; t < n; t++) {
        sums[t] = a[t] * b + sums[t];
      }
    }
  }

  /** Whether the batched sums give Lucene's own scores for random vectors of this dimension. */
  private static boolean agrees(int dimension) {
    Random random = new Random(dimension);
    List<float[]> targets = new ArrayList<>();
    for (int t = 0; t < CHECKS; t++) {
      targets.add(randomVector(random, dimension));
    }
    TargetScores batched = batched(targets);
    float[] out = new float[CHECKS];
    for (int round = 0; round < 4; round++) {
      float[] vector = randomVector(random, dimension);
      batched.scores(vector, out);
      for (int t = 0; t < CHECKS; t++) {
        float lucene = VectorSimilarityFunction.DOT_PRODUCT.compare(targets.get(t), vector);
        if (Float.floatToRawIntBits(lucene) != Float.floatToRawIntBits(out[t])) {
          return false;
        }
      }
    }
    return true;
  }

  private static float[] randomVector(Random random, int dimension) {
    float[] v = new float[dimension];
    double norm = 0;
    for (int i = 0; i < dimension; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < dimension; i++) {
      v[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return v;
  }
}

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
 * dimension finds the difference and each score is Lucene's own call. With one target, documents
 * are scored four at a time instead ({@link #scoresOfOne}): one dot product's additions wait on
 * each other, four side by side do not. Holds its running sums: one instance per pass, on one
 * thread.
 */
final class TargetScores {
  /** Below this width Lucene's dot product keeps a single running sum. */
  private static final int UNROLLED_ABOVE = 32;

  /**
   * Random targets, each scored against four random vectors and compared with Lucene's own scores,
   * before the batched sums are trusted at a width.
   */
  private static final int CHECKS = 64;

  /** How many documents {@link #scoresOfOne} scores side by side. */
  static final int BLOCK = 4;

  private static final Map<Integer, Boolean> AGREES = new ConcurrentHashMap<>();

  private final VectorSimilarityFunction similarity;
  private final List<float[]> targets;
  private final int dimension;

  /** Whether the dot products are summed here, as Lucene sums them, rather than asked of it. */
  private final boolean summedHere;

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
    this.summedHere = batched;
    int n = targets.size();
    boolean transposed = batched && n > 1; // one target is scored against documents in blocks
    this.byDimension = transposed ? new float[dimension][n] : new float[0][];
    if (transposed) {
      for (int t = 0; t < n; t++) {
        float[] target = targets.get(t);
        for (int i = 0; i < dimension; i++) {
          byDimension[i][t] = target[i];
        }
      }
    }
    int width = transposed ? n : 0;
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

  /**
   * With one target: {@code out[j]} = {@code similarity.compare(target, documents[j])} for every
   * {@code j < count}, to the bit, four documents at a time where the sums are {@link #summedHere}.
   */
  void scoresOfOne(float[][] documents, int count, float[] out) {
    if (targets.size() != 1) {
      throw new IllegalStateException("scoresOfOne needs one target, not " + targets.size());
    }
    float[] target = targets.get(0);
    int j = 0;
    if (summedHere) {
      for (; j + BLOCK <= count; j += BLOCK) {
        dotProductsOfFour(target, documents, j, out);
        for (int d = j; d < j + BLOCK; d++) {
          out[d] = Math.max((1 + out[d]) / 2, 0); // Lucene's DOT_PRODUCT score
        }
      }
    }
    for (; j < count; j++) {
      out[j] = similarity.compare(target, documents[j]);
    }
  }

  /**
   * The dot products of {@code q} with {@code documents[from]} to {@code documents[from + 3]} into
   * {@code out[from]} to {@code out[from + 3]}, each summed as Lucene sums it: four running sums in
   * steps of four above {@link #UNROLLED_ABOVE} dimensions, then the rest one by one.
   */
  private static void dotProductsOfFour(float[] q, float[][] documents, int from, float[] out) {
    float[] a = documents[from];
    float[] b = documents[from + 1];
    float[] c = documents[from + 2];
    float[] d = documents[from + 3];
    int dimension = q.length;
    float dotA = 0f;
    float dotB = 0f;
    float dotC = 0f;
    float dotD = 0f;
    int i = 0;
    if (dimension > UNROLLED_ABOVE) {
      float a1 = 0f;
      float a2 = 0f;
      float a3 = 0f;
      float a4 = 0f;
      float b1 = 0f;
      float b2 = 0f;
      float b3 = 0f;
      float b4 = 0f;
      float c1 = 0f;
      float c2 = 0f;
      float c3 = 0f;
      float c4 = 0f;
      float d1 = 0f;
      float d2 = 0f;
      float d3 = 0f;
      float d4 = 0f;
      int upper = dimension & ~3;
      for (; i < upper; i += 4) {
        float q1 = q[i];
        float q2 = q[i + 1];
        float q3 = q[i + 2];
        float q4 = q[i + 3];
        a1 = fma(q1, a[i], a1);
        a2 = fma(q2, a[i + 1], a2);
        a3 = fma(q3, a[i + 2], a3);
        a4 = fma(q4, a[i + 3], a4);
        b1 = fma(q1, b[i], b1);
        b2 = fma(q2, b[i + 1], b2);
        b3 = fma(q3, b[i + 2], b3);
        b4 = fma(q4, b[i + 3], b4);
        c1 = fma(q1, c[i], c1);
        c2 = fma(q2, c[i + 1], c2);
        c3 = fma(q3, c[i + 2], c3);
        c4 = fma(q4, c[i + 3], c4);
        d1 = fma(q1, d[i], d1);
        d2 = fma(q2, d[i + 1], d2);
        d3 = fma(q3, d[i + 2], d3);
        d4 = fma(q4, d[i + 3], d4);
      }
      dotA += a1 + a2 + a3 + a4;
      dotB += b1 + b2 + b3 + b4;
      dotC += c1 + c2 + c3 + c4;
      dotD += d1 + d2 + d3 + d4;
    }
    for (; i < dimension; i++) {
      dotA = fma(q[i], a[i], dotA);
      dotB = fma(q[i], b[i], dotB);
      dotC = fma(q[i], c[i], dotC);
      dotD = fma(q[i], d[i], dotD);
    }
    out[from] = dotA;
    out[from + 1] = dotB;
    out[from + 2] = dotC;
    out[from + 3] = dotD;
  }

  /** {@code a * b + c}, fused where Lucene fuses it. */
  private static float fma(float a, float b, float c) {
    return Constants.HAS_FAST_SCALAR_FMA ? Math.fma(a, b, c) : a * b + c;
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
    float[][] vectors = new float[BLOCK][];
    for (int round = 0; round < BLOCK; round++) {
      float[] vector = randomVector(random, dimension);
      vectors[round] = vector;
      batched.scores(vector, out);
      for (int t = 0; t < CHECKS; t++) {
        float lucene = VectorSimilarityFunction.DOT_PRODUCT.compare(targets.get(t), vector);
        if (Float.floatToRawIntBits(lucene) != Float.floatToRawIntBits(out[t])) {
          return false;
        }
      }
    }
    float[] ofOne = new float[BLOCK];
    for (float[] target : targets) { // and each target against the four vectors side by side
      batched(List.of(target)).scoresOfOne(vectors, BLOCK, ofOne);
      for (int j = 0; j < BLOCK; j++) {
        float lucene = VectorSimilarityFunction.DOT_PRODUCT.compare(target, vectors[j]);
        if (Float.floatToRawIntBits(lucene) != Float.floatToRawIntBits(ofOne[j])) {
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

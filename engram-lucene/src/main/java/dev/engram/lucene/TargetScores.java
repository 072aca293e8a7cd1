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
 * dimension finds the difference and each score is Lucene's own call. Documents are scored four at
 * a time ({@link #scores(float[][], int, float[][])}): many targets' columns are then read once for
 * four documents, and one target's dot products, whose additions wait on each other, run four side
 * by side. Holds its running sums: one instance per pass, on one thread.
 */
final class TargetScores {
  /** Below this width Lucene's dot product keeps a single running sum. */
  private static final int UNROLLED_ABOVE = 32;

  /**
   * Random targets, each scored against four random vectors and compared with Lucene's own scores,
   * before the batched sums are trusted at a width.
   */
  private static final int CHECKS = 64;

  /** How many documents {@link #scores(float[][], int, float[][])} scores side by side. */
  static final int BLOCK = 4;

  private static final Map<Integer, Boolean> AGREES = new ConcurrentHashMap<>();

  private final VectorSimilarityFunction similarity;
  private final List<float[]> targets;
  private final int dimension;

  /** Whether the dot products are summed here, as Lucene sums them, rather than asked of it. */
  private final boolean summedHere;

  /**
   * {@code byDimension[i][t]} is target {@code t}'s value at dimension {@code i}, where many
   * targets' sums are taken here; else empty.
   */
  private final float[][] byDimension;

  /**
   * Running sums of many targets: {@code sums[4 * j + r][t]} is target {@code t}'s running sum
   * {@code r} (of the dimensions {@code r}, {@code r + 4}, ...) with the block's document {@code
   * j}.
   */
  private final float[][] sums;

  private TargetScores(
      VectorSimilarityFunction similarity, List<float[]> targets, boolean batched) {
    this.similarity = similarity;
    this.targets = targets;
    this.dimension = targets.get(0).length;
    this.summedHere = batched;
    int n = targets.size();
    boolean transposed = batched && n > 1; // one target's sums are kept in registers instead
    this.byDimension = transposed ? new float[dimension][n] : new float[0][];
    if (transposed) {
      for (int t = 0; t < n; t++) {
        float[] target = targets.get(t);
        for (int i = 0; i < dimension; i++) {
          byDimension[i][t] = target[i];
        }
      }
    }
    this.sums = transposed ? new float[4 * BLOCK][n] : new float[0][];
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
   * {@code out[j][t]} = {@code similarity.compare(targets[t], documents[j])} for every target and
   * every {@code j < count}, at most {@link #BLOCK}: a whole block is summed here, four documents
   * side by side where the sums are {@link #summedHere}; a shorter one a document at a time.
   */
  void scores(float[][] documents, int count, float[][] out) {
    if (count > BLOCK) {
      throw new IllegalArgumentException("at most " + BLOCK + " documents, not " + count);
    }
    if (!summedHere || count < BLOCK) {
      for (int j = 0; j < count; j++) {
        scores(documents[j], out[j]);
      }
      return;
    }
    if (targets.size() == 1) {
      oneTargetDotProducts(targets.get(0), documents, out);
    } else {
      manyTargetDotProducts(documents, out);
    }
    for (int j = 0; j < BLOCK; j++) {
      for (int t = 0; t < targets.size(); t++) {
        out[j][t] = Math.max((1 + out[j][t]) / 2, 0); // Lucene's DOT_PRODUCT score
      }
    }
  }

  /** {@code out[t]} = {@code similarity.compare(targets[t], vector)} for every target. */
  void scores(float[] vector, float[] out) {
    if (byDimension.length == 0) {
      for (int t = 0; t < targets.size(); t++) {
        out[t] = similarity.compare(targets.get(t), vector);
      }
      return;
    }
    float[][] one = {vector};
    float[][] dots = {out};
    dotProducts(one, dots);
    for (int t = 0; t < targets.size(); t++) {
      out[t] = Math.max((1 + out[t]) / 2, 0); // Lucene's DOT_PRODUCT score
    }
  }

  /**
   * {@code out[j][0]} = the dot product of {@code q} with {@code documents[j]}, for the block's
   * four documents side by side, each summed as Lucene sums it: four running sums in steps of four
   * above {@link #UNROLLED_ABOVE} dimensions, then the rest one by one.
   */
  private static void oneTargetDotProducts(float[] q, float[][] documents, float[][] out) {
    float[] a = documents[0];
    float[] b = documents[1];
    float[] c = documents[2];
    float[] d = documents[3];
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
    out[0][0] = dotA;
    out[1][0] = dotB;
    out[2][0] = dotC;
    out[3][0] = dotD;
  }

  /**
   * Every target's dot product with each of the block's four documents into {@code out[j][t]},
   * summed as Lucene sums it; each target column is read once for the four documents.
   */
  private void manyTargetDotProducts(float[][] documents, float[][] out) {
    int n = targets.size();
    float[] a = documents[0];
    float[] b = documents[1];
    float[] c = documents[2];
    float[] d = documents[3];
    int i = 0;
    if (dimension > UNROLLED_ABOVE) {
      for (float[] running : sums) {
        Arrays.fill(running, 0f);
      }
      int upper = dimension & ~3;
      for (; i < upper; i += 4) {
        for (int r = 0; r < 4; r++) {
          accumulate(
              byDimension[i + r],
              a[i + r],
              b[i + r],
              c[i + r],
              d[i + r],
              sums[r],
              sums[4 + r],
              sums[8 + r],
              sums[12 + r],
              n);
        }
      }
      for (int j = 0; j < BLOCK; j++) {
        addUp(j, out[j], n);
      }
    } else {
      for (int j = 0; j < BLOCK; j++) {
        Arrays.fill(out[j], 0, n, 0f);
      }
    }
    for (; i < dimension; i++) {
      accumulate(byDimension[i], a[i], b[i], c[i], d[i], out[0], out[1], out[2], out[3], n);
    }
  }

  /**
   * Every target's dot product with {@code documents[0]} into {@code out[0][t]}, summed as Lucene
   * sums it.
   */
  private void dotProducts(float[][] documents, float[][] out) {
    int n = targets.size();
    float[] b = documents[0];
    float[] dots = out[0];
    int i = 0;
    if (dimension > UNROLLED_ABOVE) {
      for (int r = 0; r < 4; r++) {
        Arrays.fill(sums[r], 0f);
      }
      int upper = dimension & ~3;
      for (; i < upper; i += 4) {
        for (int r = 0; r < 4; r++) {
          accumulate(byDimension[i + r], b[i + r], sums[r], n);
        }
      }
      addUp(0, dots, n);
    } else {
      Arrays.fill(dots, 0, n, 0f);
    }
    for (; i < dimension; i++) {
      accumulate(byDimension[i], b[i], dots, n);
    }
  }

  /** Document {@code j}'s four running sums added up into {@code dots}, as Lucene adds them. */
  private void addUp(int j, float[] dots, int n) {
    float[] s1 = sums[4 * j];
    float[] s2 = sums[4 * j + 1];
    float[] s3 = sums[4 * j + 2];
    float[] s4 = sums[4 * j + 3];
    for (int t = 0; t < n; t++) {
      dots[t] = 0f + (s1[t] + s2[t] + s3[t] + s4[t]);
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

  /**
   * {@code sa[t] += column[t] * xa}, and the same for the other three documents, for every target,
   * fused where Lucene fuses it: one read of the column for four documents.
   */
  private static void accumulate(
      float[] column,
      float xa,
      float xb,
      float xc,
      float xd,
      float[] sa,
      float[] sb,
      float[] sc,
      float[] sd,
      int n) {
    if (Constants.HAS_FAST_SCALAR_FMA) {
      for (int t = 0; t < n; t++) {
        float v = column[t];
        sa[t] = Math.fma(v, xa, sa[t]);
        sb[t] = Math.fma(v, xb, sb[t]);
        sc[t] = Math.fma(v, xc, sc[t]);
        sd[t] = Math.fma(v, xd, sd[t]);
      }
    } else {
      for (int t = 0; t < n; t++) {
        float v = column[t];
        sa[t] = v * xa + sa[t];
        sb[t] = v * xb + sb[t];
        sc[t] = v * xc + sc[t];
        sd[t] = v * xd + sd[t];
      }
    }
  }

  /** {@code a * b + c}, fused where Lucene fuses it. */
  private static float fma(float a, float b, float c) {
    return Constants.HAS_FAST_SCALAR_FMA ? Math.fma(a, b, c) : a * b + c;
  }

  /**
   * Whether the sums taken here give Lucene's own scores for random vectors of this dimension: many
   * targets a document at a time and a block at a time, and each target alone against a block.
   */
  private static boolean agrees(int dimension) {
    Random random = new Random(dimension);
    List<float[]> targets = new ArrayList<>();
    for (int t = 0; t < CHECKS; t++) {
      targets.add(randomVector(random, dimension));
    }
    float[][] block = new float[BLOCK][];
    for (int j = 0; j < BLOCK; j++) {
      block[j] = randomVector(random, dimension);
    }
    TargetScores batched = batched(targets);
    float[][] together = new float[BLOCK][CHECKS];
    batched.scores(block, BLOCK, together);
    float[] alone = new float[CHECKS];
    float[][] ofOne = new float[BLOCK][1];
    for (int j = 0; j < BLOCK; j++) {
      batched.scores(block[j], alone);
      for (int t = 0; t < CHECKS; t++) {
        float lucene = VectorSimilarityFunction.DOT_PRODUCT.compare(targets.get(t), block[j]);
        if (!sameFloat(lucene, alone[t]) || !sameFloat(lucene, together[j][t])) {
          return false;
        }
      }
    }
    for (int t = 0; t < CHECKS; t++) {
      batched(List.of(targets.get(t))).scores(block, BLOCK, ofOne);
      for (int j = 0; j < BLOCK; j++) {
        float lucene = VectorSimilarityFunction.DOT_PRODUCT.compare(targets.get(t), block[j]);
        if (!sameFloat(lucene, ofOne[j][0])) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean sameFloat(float a, float b) {
    return Float.floatToRawIntBits(a) == Float.floatToRawIntBits(b);
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

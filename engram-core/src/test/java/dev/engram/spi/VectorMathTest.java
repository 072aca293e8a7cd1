package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link VectorMath}: the cosine given the sums of squares is the cosine, to the bit. */
class VectorMathTest {
  @Test
  void theCosineGivenSumsOfSquaresIsTheCosineToTheBit() {
    SplittableRandom random = new SplittableRandom(7);
    for (int round = 0; round < 1_000; round++) {
      int n = 1 + random.nextInt(400);
      float[] a = new float[n];
      float[] b = new float[n];
      for (int i = 0; i < n; i++) {
        a[i] = (float) (random.nextDouble() * 2 - 1);
        b[i] = (float) (random.nextDouble() * 2 - 1);
      }
      assertThat(VectorMath.cosine(a, VectorMath.sumOfSquares(a), b, VectorMath.sumOfSquares(b)))
          .isEqualTo(VectorMath.cosine(a, b));
    }
  }

  @Test
  void cosinesFourAtATimeAreEachCosineToTheBit() {
    SplittableRandom random = new SplittableRandom(11);
    float[] q = randomVector(random, 384);
    float[][] vectors = new float[23][];
    double[] squares = new double[vectors.length];
    for (int i = 0; i < vectors.length; i++) {
      // one vector of another length among them, and one of zeros
      vectors[i] =
          i == 9 ? randomVector(random, 200) : i == 14 ? new float[384] : randomVector(random, 384);
      squares[i] = VectorMath.sumOfSquares(vectors[i]);
    }
    int[] rows = {3, 0, 7, 1, 22, 5, 9, 2, 14, 11, 13, 6, 21, 8, 4, 10, 12};
    for (int count = 0; count <= rows.length; count++) {
      double[] out = new double[count];
      VectorMath.cosines(vectors, squares, rows, count, q, VectorMath.sumOfSquares(q), out);
      for (int i = 0; i < count; i++) {
        assertThat(out[i]).isEqualTo(VectorMath.cosine(vectors[rows[i]], q));
      }
    }
  }

  private static float[] randomVector(SplittableRandom random, int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (random.nextDouble() * 2 - 1);
    }
    return v;
  }

  @Test
  void zeroVectorsAndDifferentLengthsAreTheCosinesToo() {
    float[] zero = new float[3];
    float[] v = {1, 2, 3};
    float[] longer = {1, 2, 3, 4};
    assertThat(VectorMath.cosine(zero, 0, v, VectorMath.sumOfSquares(v))).isZero();
    assertThat(VectorMath.cosine(v, VectorMath.sumOfSquares(v), longer, 30))
        .isEqualTo(VectorMath.cosine(v, longer));
    assertThat(VectorMath.cosine(v, VectorMath.sumOfSquares(v), longer, 30)).isEqualTo(1.0);
  }
}

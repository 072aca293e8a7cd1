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

package dev.engram.spi;

/**
 * The cosine similarity of Engram: what a {@link SearchIndex} scores dense candidates with when it
 * computes it itself rather than in an index library (the reference index of the contract kit,
 * PostgreSQL's cached plain-array path), and what the engine's relevance scores and graph search
 * compute.
 */
public final class VectorMath {
  private VectorMath() {}

  /**
   * The cosine similarity of {@code a} and {@code b} over their common length, accumulated in
   * double precision: their dot product divided by the product of their L2 norms, and 0 if either
   * vector is zero (the convention of every Engram index, so that a zero vector never divides by
   * zero).
   */
  public static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      double x = a[i];
      double y = b[i];
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
  }

  /**
   * The sum of the squares of {@code v}'s components, accumulated in double precision as {@link
   * #cosine(float[], float[])} accumulates a vector's: kept beside a vector, it lets {@link
   * #cosine(float[], double, float[], double)} skip that part of the work.
   */
  public static double sumOfSquares(float[] v) {
    double s = 0;
    for (float f : v) {
      double x = f;
      s += x * x;
    }
    return s;
  }

  /**
   * {@link #cosine(float[], float[])}, to the bit, given each vector's {@link #sumOfSquares}: only
   * the dot product is computed (vectors of different lengths are compared whole, their sums not
   * used).
   */
  public static double cosine(float[] a, double aSquares, float[] b, double bSquares) {
    if (a.length != b.length) {
      return cosine(a, b);
    }
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      double x = a[i];
      double y = b[i];
      dot += x * y;
    }
    return aSquares == 0 || bSquares == 0 ? 0 : dot / Math.sqrt(aSquares * bSquares);
  }
}

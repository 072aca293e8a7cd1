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
    return cosine(dot, na, nb);
  }

  /** The cosine from a dot product and the two vectors' sums of squares; 0 if either is zero. */
  private static double cosine(double dot, double aSquares, double bSquares) {
    return aSquares == 0 || bSquares == 0 ? 0 : dot / Math.sqrt(aSquares * bSquares);
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
    return cosine(dot(a, b), aSquares, bSquares);
  }

  /**
   * The cosines of {@code q} with the vectors {@code vectors[rows[i]]}, {@code i < count}, into
   * {@code out[i]}, each to the bit {@link #cosine(float[], double, float[], double)} given {@code
   * squares[rows[i]]} and {@code qSquares}, but four vectors at a time: a dot product is a sum that
   * must be added up in order, one addition waiting on the last, and four such sums side by side
   * keep the processor busy where one leaves it waiting.
   */
  public static void cosines(
      float[][] vectors,
      double[] squares,
      int[] rows,
      int count,
      float[] q,
      double qSquares,
      double[] out) {
    int i = 0;
    for (; i + 4 <= count; i += 4) {
      float[] a = vectors[rows[i]];
      float[] b = vectors[rows[i + 1]];
      float[] c = vectors[rows[i + 2]];
      float[] d = vectors[rows[i + 3]];
      if (a.length != q.length
          || b.length != q.length
          || c.length != q.length
          || d.length != q.length) {
        break; // not one length: one at a time below
      }
      double da = 0;
      double db = 0;
      double dc = 0;
      double dd = 0;
      for (int j = 0; j < q.length; j++) {
        double y = q[j];
        da += a[j] * y;
        db += b[j] * y;
        dc += c[j] * y;
        dd += d[j] * y;
      }
      out[i] = cosine(da, squares[rows[i]], qSquares);
      out[i + 1] = cosine(db, squares[rows[i + 1]], qSquares);
      out[i + 2] = cosine(dc, squares[rows[i + 2]], qSquares);
      out[i + 3] = cosine(dd, squares[rows[i + 3]], qSquares);
    }
    for (; i < count; i++) {
      out[i] = cosine(vectors[rows[i]], squares[rows[i]], q, qSquares);
    }
  }

  /** The dot product of vectors of one length, in double precision, added up in order. */
  private static double dot(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      double x = a[i];
      double y = b[i];
      dot += x * y;
    }
    return dot;
  }
}

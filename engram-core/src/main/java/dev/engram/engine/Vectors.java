package dev.engram.engine;

import dev.engram.EngramException;

/** Vector checks shared by the write and search paths. */
final class Vectors {
  private Vectors() {}

  /** Checks the length and finiteness of a vector, and L2-normalises it in place. */
  static float[] normalized(float[] v, int dimension, String what) {
    if (v == null || v.length != dimension) {
      throw new EngramException("the embedder returned a vector of " + (v == null ? "null" : v.length + " dims")
          + " for " + what + "; expected " + dimension);
    }
    double sum = 0;
    for (float x : v) {
      if (!Float.isFinite(x)) {
        throw new EngramException("the embedder returned a non-finite value for " + what);
      }
      sum += x * x;
    }
    if (sum == 0) {
      return v;
    }
    float inv = (float) (1.0 / Math.sqrt(sum));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }
}

package dev.engram.testing;

/**
 * A deterministic test embedder (a fake: no model runs): each lower-cased word is hashed into one
 * of {@code dimension} buckets, so texts that share words have similar vectors. Vectors are
 * L2-normalised.
 */
public final class HashEmbedder extends WordEmbedder {
  public HashEmbedder() {
    this(64, "test-hash-64");
  }

  public HashEmbedder(int dimension, String modelId) {
    super(modelId, dimension);
  }

  @Override
  float[] embed(String text) {
    float[] v = new float[dimension];
    for (String w : words(text)) {
      if (!w.isEmpty()) {
        v[Math.floorMod(w.hashCode(), dimension)] += 1f;
      }
    }
    double norm = squaredNorm(v);
    if (norm == 0) {
      v[0] = 1f;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }
}

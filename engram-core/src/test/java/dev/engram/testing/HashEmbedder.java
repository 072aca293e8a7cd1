package dev.engram.testing;

import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic test embedder (a fake: no model runs): each lower-cased word is hashed into one of
 * {@code dimension} buckets, so texts that share words have similar vectors. Vectors are L2-normalised.
 */
public final class HashEmbedder implements Embedder {
  private final int dimension;
  private final String modelId;

  public HashEmbedder() {
    this(64, "test-hash-64");
  }

  public HashEmbedder(int dimension, String modelId) {
    this.dimension = dimension;
    this.modelId = modelId;
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[] embedQuery(String text) {
    return embed(text);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(embed(t));
    }
    return out;
  }

  private float[] embed(String text) {
    float[] v = new float[dimension];
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty()) {
        v[Math.floorMod(w.hashCode(), dimension)] += 1f;
      }
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
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

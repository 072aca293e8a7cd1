package dev.engram.engine;

import dev.engram.EngramException;
import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;

/** Vector checks shared by the write and search paths. */
final class Vectors {
  private Vectors() {}

  /**
   * Embeds stored texts in one call ({@link Embedder#embedDocuments}, which may deal them over the
   * cores) and checks and normalises each vector ({@link #normalized}): the one way the engine
   * embeds documents (memory texts, their contexts, graph facts and entity names). No call for no
   * texts.
   *
   * @throws EngramException if the embedder returns another number of vectors than texts, or a bad
   *     vector (the message names {@code what})
   */
  static List<float[]> embedDocuments(Embedder embedder, List<String> texts, String what) {
    if (texts.isEmpty()) {
      return List.of();
    }
    List<float[]> vectors = embedder.embedDocuments(texts);
    if (vectors == null || vectors.size() != texts.size()) {
      throw new EngramException(
          "the embedder returned "
              + (vectors == null ? "no list" : vectors.size() + " vectors")
              + " for "
              + texts.size()
              + " texts ("
              + what
              + ")");
    }
    List<float[]> out = new ArrayList<>(vectors.size());
    for (float[] v : vectors) {
      out.add(normalized(v, embedder.dimension(), what));
    }
    return out;
  }

  /** Checks the length and finiteness of a vector, and L2-normalises it in place. */
  static float[] normalized(float[] v, int dimension, String what) {
    if (v == null || v.length != dimension) {
      throw new EngramException(
          "the embedder returned a vector of "
              + (v == null ? "null" : v.length + " dims")
              + " for "
              + what
              + "; expected "
              + dimension);
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

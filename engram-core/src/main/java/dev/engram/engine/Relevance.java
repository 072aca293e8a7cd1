package dev.engram.engine;

import dev.engram.spi.VectorMath;

/**
 * The relevance score of a search hit, in [0,1] and comparable across queries and scopes: the cosine similarity of
 * the query's and the memory's embeddings, mapped linearly from the embedder's
 * {@link dev.engram.spi.Embedder#relevanceFloor() floor} (and below: 0) up to 1 (1). Unlike the fused score, which
 * orders the hits of one search by rank, it does not depend on the other memories of the store, so a threshold on
 * it can drop a query's junk.
 */
final class Relevance {
  /** Float rounding of normalised vectors: a cosine this close to 1 is an identical embedding and scores 1. */
  private static final double IDENTICAL = 1e-6;

  private Relevance() {}

  /** The relevance of a cosine similarity under a floor in [0, 1). */
  static double of(double cosine, double floor) {
    if (!(cosine > floor)) {
      return 0.0;
    }
    if (cosine >= 1.0 - IDENTICAL) {
      return 1.0;
    }
    return (cosine - floor) / (1.0 - floor);
  }

  /** The cosine similarity of two vectors ({@link VectorMath#cosine}, the one implementation). */
  static double cosine(float[] a, float[] b) {
    return VectorMath.cosine(a, b);
  }
}

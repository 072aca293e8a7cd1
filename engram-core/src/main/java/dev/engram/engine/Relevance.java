package dev.engram.engine;

import dev.engram.SearchHit;
import dev.engram.spi.VectorMath;

/**
 * The relevance score of a search hit, in [0,1] and comparable across queries and scopes. A
 * memory's own relevance ({@link #of}) is the cosine similarity of the query's and the memory's
 * embeddings, mapped linearly from the embedder's {@link dev.engram.spi.Embedder#relevanceFloor()
 * floor} (and below: 0) up to 1 (1): unlike the fused score, which orders the hits of one search by
 * rank, it does not depend on the other memories of the store, so a threshold on it can drop a
 * query's junk. The hit's score ({@link #supported}) adds at most {@link SearchHit#MAX_SUPPORT} of
 * the fusion's support to it, never past the query's best own relevance.
 */
final class Relevance {
  /**
   * Float rounding of normalised vectors: a cosine this close to 1 is an identical embedding and
   * scores 1.
   */
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

  /**
   * A hit's score: its own relevance, raised towards the query's relevance (the best own relevance
   * among the fusion's first candidates) times the hit's share of the best fused score, by at most
   * {@link SearchHit#MAX_SUPPORT}; in [0, 1]. A memory the fusion ranks near the best hit (by its
   * words, its context, its date or its neighbours) so keeps a score near the best one's when its
   * own embedding is a little further from the query, and no hit of a query the store knows nothing
   * about (whose best relevance is low) scores higher than that best relevance.
   */
  static double supported(double own, double query, double fusedShare) {
    double support = query * Math.max(0, Math.min(1, fusedShare));
    return Math.max(own, Math.min(own + SearchHit.MAX_SUPPORT, support));
  }

  /** The cosine similarity of two vectors ({@link VectorMath#cosine}, the one implementation). */
  static double cosine(float[] a, float[] b) {
    return VectorMath.cosine(a, b);
  }
}

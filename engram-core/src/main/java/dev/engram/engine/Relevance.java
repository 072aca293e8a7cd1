package dev.engram.engine;

import dev.engram.SearchHit;
import dev.engram.spi.RelevanceCalibration;
import dev.engram.spi.VectorMath;

/**
 * The relevance score of a search hit, in [0,1] and comparable across queries, scopes and data. A
 * memory's own relevance ({@link #of}) is the probability that it is relevant to the query, given
 * the cosine similarity of their embeddings and the share of the query's content words it holds
 * ({@link dev.engram.analysis.QueryAnalyzer#share}), by the embedder's calibrated map ({@link
 * RelevanceCalibration}, fitted per embedder on labelled pairs of two benchmarks; 0.5 = as likely
 * relevant as not): unlike the fused score, which orders the hits of one search by rank, it does
 * not depend on the other memories of the store, so a threshold on it means the same on any data.
 * The hit's score ({@link #supported}) adds at most {@link SearchHit#MAX_SUPPORT} of the fusion's
 * support to it, never past the query's best own relevance. This class is the one place the map is
 * applied: scores in results, thresholds and the off-topic cut all read it.
 */
final class Relevance {
  private Relevance() {}

  /**
   * The relevance of a cosine similarity and a keyword share (of the query's content words the
   * memory holds) under the embedder's calibrated map.
   */
  static double of(double cosine, double keywordShare, RelevanceCalibration map) {
    return map.probability(cosine, keywordShare);
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

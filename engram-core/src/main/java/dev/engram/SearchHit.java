package dev.engram;

import java.util.Objects;

/**
 * One search result.
 *
 * @param memory the memory
 * @param score relevance in [0,1], comparable across queries, scopes and data: the probability that
 *     the memory is relevant to the query (0.5: as likely as not). The memory's own relevance is
 *     the embedder's calibrated map ({@code Embedder#relevanceCalibration()}) of the cosine of the
 *     query's and the memory's embeddings (with context embeddings on and the ranking's context
 *     step, the larger of that and the cosine with the memory's context embedding) and of the share
 *     of the query's content words the memory's text holds. The fusion's support raises it by at
 *     most {@link #MAX_SUPPORT}, towards the best own relevance among the search's first candidates
 *     times the hit's share of the best fused score: a memory ranked next to the best hit by its
 *     words, context, date or neighbours scores near it, and no hit scores above the best hit's
 *     relevance by support, so a query the scope knows nothing about returns nothing at a threshold
 *     over that. A reranker's score replaces it when one rescored the hits. Hits are sorted by it,
 *     best first
 * @param details per-signal scores, or null unless the request asked to explain
 */
public record SearchHit(MemoryItem memory, double score, ScoreDetails details) {
  /**
   * The most the fusion's support adds to a hit's own relevance: less than {@link
   * SearchRequest#SUGGESTED_THRESHOLD}, so a memory whose own relevance is 0.15 or less never
   * reaches that threshold, however the fusion ranks it.
   */
  public static final double MAX_SUPPORT = 0.15;

  public SearchHit {
    Objects.requireNonNull(memory, "memory");
  }
}

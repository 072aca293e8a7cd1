package dev.engram.spi;

import dev.engram.MemoryItem;
import dev.engram.RerankerException;
import java.util.List;

/**
 * Judges how relevant each of the best fused search hits is to the query (a cross-encoder API such
 * as Cohere's, Jina's or Voyage's rerank endpoint, or a language model). The engine hands over the
 * best {@link #candidates()} hits that passed the threshold (or the request's top-k, when larger),
 * orders them by the returned scores (ties keep the fused order), cuts them to top-k and reports
 * each score as {@code ScoreDetails.rerank}. It runs only for a request that asks for it ({@code
 * SearchRequest.rerank}). Implementations are thread-safe and may block.
 */
public interface Reranker {
  /**
   * How many hits to rerank by default: enough to lift evidence from below the top 10, one call's
   * worth.
   */
  int DEFAULT_CANDIDATES = 30;

  /** How many of the best fused hits this reranker wants to see (at least 1). */
  default int candidates() {
    return DEFAULT_CANDIDATES;
  }

  /**
   * One relevance score per candidate, in the candidates' order; higher is more relevant (the
   * bundled rerankers give scores in [0, 1]).
   *
   * @throws RerankerException when the scores cannot be had (the provider failed or answered
   *     something unusable); the engine then keeps the fused order and logs the failure
   */
  List<Double> scores(String query, List<MemoryItem> candidates);

  /** The reranker that never runs: searches keep the fused order and report no rerank score. */
  static Reranker none() {
    return NoReranker.INSTANCE;
  }

  /** False only for {@link #none()}. */
  default boolean active() {
    return true;
  }
}

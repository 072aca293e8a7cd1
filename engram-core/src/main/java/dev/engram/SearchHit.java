package dev.engram;

import java.util.Objects;

/**
 * One search result.
 *
 * @param memory  the memory
 * @param score   relevance in [0,1], comparable across queries and scopes: the cosine of the query's and the
 *                memory's embeddings (with context embeddings on and the ranking's context step, the larger of that
 *                and the cosine with the memory's context embedding) mapped from the embedder's
 *                {@code relevanceFloor()} (0) up to 1 (1), or the reranker's score if one rescored the hits; hits are
 *                sorted by it, best first
 * @param details per-signal scores, or null unless the request asked to explain
 */
public record SearchHit(MemoryItem memory, double score, ScoreDetails details) {
  public SearchHit {
    Objects.requireNonNull(memory, "memory");
  }
}

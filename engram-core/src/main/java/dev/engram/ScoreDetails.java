package dev.engram;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Per-signal scores of one search hit (with {@code explain}).
 *
 * @param semantic cosine similarity of query and memory embeddings mapped to [0,1], or 0 if not
 *     retrieved densely
 * @param semanticRank 1-based rank in the dense list, or 0 if absent
 * @param keyword BM25 score (with the ranking step {@link Ranking#CONTEXT context}, of the text
 *     plus half that of the memory's source context), or 0 if the memory did not match the query's
 *     terms
 * @param keywordRank 1-based rank in the BM25 list, or 0 if absent
 * @param fused the fused score before reranking, with what the request's ranking steps added
 *     ({@link Ranking}: a query naming a period adds a list, so this may exceed 1)
 * @param rerank the reranker's score (higher is more relevant), or NaN if no reranker ran for this
 *     search
 * @param fusion the fusion method used
 * @param steps what each ranking step of the request did to this hit, by step name, in the order
 *     the steps ran (empty if none changed it, and for a hit read over the REST API)
 */
public record ScoreDetails(
    double semantic,
    int semanticRank,
    double keyword,
    int keywordRank,
    double fused,
    double rerank,
    String fusion,
    Map<String, String> steps) {

  public ScoreDetails {
    steps =
        Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(steps, "steps")));
  }

  /** Details without any ranking step's entry. */
  public ScoreDetails(
      double semantic,
      int semanticRank,
      double keyword,
      int keywordRank,
      double fused,
      double rerank,
      String fusion) {
    this(semantic, semanticRank, keyword, keywordRank, fused, rerank, fusion, Map.of());
  }

  /** These details with the reranker's score. */
  public ScoreDetails withRerank(double score) {
    return new ScoreDetails(
        semantic, semanticRank, keyword, keywordRank, fused, score, fusion, steps);
  }
}

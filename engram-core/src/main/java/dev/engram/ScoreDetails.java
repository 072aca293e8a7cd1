package dev.engram;

/**
 * Per-signal scores of one search hit (with {@code explain}).
 *
 * @param semantic  cosine similarity of query and memory embeddings mapped to [0,1], or 0 if not retrieved densely
 * @param semanticRank 1-based rank in the dense list, or 0 if absent
 * @param keyword   BM25 score (with the ranking step {@link Ranking#context() context}, of the text plus half that of
 *                  the memory's source context), or 0 if the memory did not match the query's terms
 * @param keywordRank 1-based rank in the BM25 list, or 0 if absent
 * @param fused     the fused score before reranking, with what the request's ranking steps added ({@link Ranking}:
 *                  a query naming a period adds a list, so this may exceed 1)
 * @param rerank    the reranker's score (higher is more relevant), or NaN if no reranker ran for this search
 * @param fusion    the fusion method used
 */
public record ScoreDetails(double semantic, int semanticRank, double keyword, int keywordRank, double fused,
                           double rerank, String fusion) {

  /** These details with the reranker's score. */
  public ScoreDetails withRerank(double score) {
    return new ScoreDetails(semantic, semanticRank, keyword, keywordRank, fused, score, fusion);
  }
}

package dev.engram.engine;

import dev.engram.RerankerException;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.spi.Reranker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reranking step of a search: how many fused hits a search keeps for the reranker, and their reordering. Runs
 * only when the request asks for it and a reranker is configured. The hits keep their fused score (as mem0's); the
 * order follows the reranker's scores (ties keep the fused order), each score is reported in
 * {@link dev.engram.ScoreDetails#rerank()} with {@code explain}, and the list is cut to top-k. A reranker that fails
 * ({@link RerankerException}, or scores that do not match the candidates) is logged at WARN and the fused order is
 * kept, without rerank scores, so a search never fails because of its reranker.
 */
final class Reranking {
  private static final Logger LOG = LoggerFactory.getLogger(Reranking.class);

  private final Reranker reranker;

  Reranking(Reranker reranker) {
    this.reranker = Objects.requireNonNull(reranker, "reranker");
  }

  /** Whether the request's hits are reranked. */
  boolean runs(SearchRequest r) {
    return r.rerank() && reranker.active();
  }

  /** How many fused hits (after the threshold) the search hands to {@link #apply}. */
  int pool(SearchRequest r) {
    return runs(r) ? Math.min(SearchRequest.MAX_TOP_K, Math.max(r.topK(), Math.max(1, reranker.candidates())))
        : r.topK();
  }

  /** The fused hits, best first, reranked when the request asks for it, cut to top-k. */
  List<SearchHit> apply(SearchRequest r, List<SearchHit> fused) {
    if (!runs(r) || fused.isEmpty()) {
      return cut(fused, r.topK());
    }
    List<Double> scores;
    try {
      scores = checked(reranker.scores(r.query(), fused.stream().map(SearchHit::memory).toList()), fused.size());
    } catch (RerankerException e) {
      LOG.warn("Reranking failed, the search keeps the fused order: {}", e.getMessage());
      return cut(fused, r.topK());
    }
    List<Integer> order = new ArrayList<>(fused.size());
    for (int i = 0; i < fused.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingDouble((Integer i) -> -scores.get(i))); // stable: ties keep the fused order
    List<SearchHit> out = new ArrayList<>(Math.min(r.topK(), fused.size()));
    for (int i : order.subList(0, Math.min(r.topK(), order.size()))) {
      SearchHit h = fused.get(i);
      out.add(new SearchHit(h.memory(), h.score(), h.details() == null ? null : h.details().withRerank(scores.get(i))));
    }
    return out;
  }

  private static List<Double> checked(List<Double> scores, int candidates) {
    if (scores == null || scores.size() != candidates) {
      throw new RerankerException("the reranker returned " + (scores == null ? "no" : scores.size())
          + " scores for " + candidates + " candidates");
    }
    for (Double s : scores) {
      if (s == null || !Double.isFinite(s)) {
        throw new RerankerException("the reranker returned a score that is not a finite number: " + s);
      }
    }
    return scores;
  }

  private static List<SearchHit> cut(List<SearchHit> hits, int topK) {
    return hits.size() <= topK ? hits : List.copyOf(hits.subList(0, topK));
  }
}

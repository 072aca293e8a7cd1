package dev.engram.engine;

import dev.engram.RerankerException;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.spi.Reranker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reranking step of a search: how many fused hits a search keeps for the reranker, and their
 * reordering. Runs only when the request asks for it and a reranker is configured. The hits keep
 * their score (as mem0's); the order follows the reranker's scores (ties keep the given order),
 * each score is reported in {@link dev.engram.ScoreDetails#rerank()} with {@code explain}, and the
 * list is cut to top-k. A reranker that fails ({@link RerankerException}, or scores that do not
 * match the candidates) is logged at WARN and the search returns what it returns without reranking,
 * without rerank scores, so a search never fails because of its reranker.
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

  /**
   * How many hits (after the threshold) the search hands to {@link #rerank}: the reranker's
   * candidates, or more when the search itself wants more ({@code wanted}: top-k, or what a token
   * budget can hold).
   */
  int pool(int wanted) {
    return Math.min(SearchRequest.MAX_TOP_K, Math.max(wanted, Math.max(1, reranker.candidates())));
  }

  /**
   * The candidates (best first) in the reranker's order, cut to top-k; empty when the request does
   * not rerank, there is nothing to rerank, or the reranker failed (logged), so that the caller
   * returns what the search gives without reranking.
   */
  Optional<List<SearchHit>> rerank(SearchRequest r, List<SearchHit> candidates) {
    if (!runs(r) || candidates.isEmpty()) {
      return Optional.empty();
    }
    List<Double> scores;
    try {
      scores =
          checked(
              reranker.scores(r.query(), candidates.stream().map(SearchHit::memory).toList()),
              candidates.size());
    } catch (RerankerException e) {
      LOG.warn(
          "Reranking failed, the search keeps its order without reranking: {}", e.getMessage());
      return Optional.empty();
    }
    List<Integer> order = new ArrayList<>(candidates.size());
    for (int i = 0; i < candidates.size(); i++) {
      order.add(i);
    }
    order.sort(
        Comparator.comparingDouble(
            (Integer i) -> -scores.get(i))); // stable: ties keep the given order
    List<SearchHit> out = new ArrayList<>(Math.min(r.topK(), candidates.size()));
    for (int i : order.subList(0, Math.min(r.topK(), order.size()))) {
      SearchHit h = candidates.get(i);
      out.add(
          new SearchHit(
              h.memory(),
              h.score(),
              h.details() == null ? null : h.details().withRerank(scores.get(i))));
    }
    return Optional.of(out);
  }

  private static List<Double> checked(List<Double> scores, int candidates) {
    if (scores == null || scores.size() != candidates) {
      throw new RerankerException(
          "the reranker returned "
              + (scores == null ? "no" : scores.size())
              + " scores for "
              + candidates
              + " candidates");
    }
    for (Double s : scores) {
      if (s == null || !Double.isFinite(s)) {
        throw new RerankerException(
            "the reranker returned a score that is not a finite number: " + s);
      }
    }
    return scores;
  }
}

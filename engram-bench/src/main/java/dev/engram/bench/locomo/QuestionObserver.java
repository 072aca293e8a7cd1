package dev.engram.bench.locomo;

import dev.engram.SearchHit;
import dev.engram.SearchResult;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The hook for answer generation and judging: {@link LocomoBench} calls it once per scored question
 * (categories 1 to 4) with what was retrieved, right after the search, on the benchmark's thread.
 * An implementation may answer at once or hand the work to its own bounded executor and return a
 * pending stage; the benchmark waits for every stage before it builds the report.
 *
 * <p>The returned map holds per-question metrics (for example {@code j}, {@code f1}, {@code
 * bleu1}); the report averages each key per category and overall, over the questions that reported
 * it, and writes it beside the retrieval metrics ({@link LocomoReport.Scores#extra()}, {@link
 * LocomoReport.Baseline#extra()}). An empty map adds nothing. Implementations must be safe to call
 * from one thread while earlier stages complete on others.
 *
 * <p>For a batch evaluation after the run, collect the questions and hits here, return completed
 * empty maps, and merge the results with {@link LocomoReport#withMetrics} and {@link
 * LocomoReport#withBaselineMetrics}.
 */
public interface QuestionObserver {

  /**
   * Engram's run: the hits of the search, best first (in the {@code speaker} layout the merged
   * top-k of both stores). Each hit carries the memory text, its event time, source ids and score.
   */
  CompletionStage<Map<String, Double>> onSearch(
      Conversation conversation, Question question, List<SearchHit> hits);

  /**
   * Engram's run with everything the search returned: the hits and, with the graph memory on, the
   * relations ({@link SearchResult#relations()}, best first; in the {@code speaker} layout the
   * merged top-k of both stores). The benchmark calls this one; by default it passes the hits to
   * {@link #onSearch(Conversation, Question, List)}, so an observer that ignores relations
   * implements only that.
   */
  default CompletionStage<Map<String, Double>> onSearch(
      Conversation conversation, Question question, SearchResult result) {
    return onSearch(conversation, question, result.hits());
  }

  /**
   * A baseline's contexts, best first: the retrieved chunks of a RAG baseline (for example {@code
   * rag-512-k2}), or the whole conversation as one text for {@code full-context}. By default
   * nothing is measured.
   */
  default CompletionStage<Map<String, Double>> onBaseline(
      String baseline, Conversation conversation, Question question, List<String> contexts) {
    return CompletableFuture.completedFuture(Map.of());
  }

  /** An observer that measures nothing. */
  static QuestionObserver none() {
    return (conversation, question, hits) -> CompletableFuture.completedFuture(Map.of());
  }
}

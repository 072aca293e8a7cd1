package dev.engram.bench.answer;

import dev.engram.SearchHit;
import dev.engram.SearchResult;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.QuestionObserver;
import dev.engram.bench.locomo.RelationLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Connects the LoCoMo harness to answer generation and judging: each searched question is answered
 * from its hits and judged {@code judgeRuns} times on a bounded pool, and reports {@code j} (mean
 * label x 100), {@code f1} (x 100), {@code bleu1} (x 100) and one {@code j_run_<r>} per judge run
 * (their spread over runs is J's standard deviation). Close it after the benchmark.
 */
public final class AnswerObserver implements QuestionObserver, AutoCloseable {
  private final AnswerEvaluation evaluation;
  private final ExecutorService pool;

  private AnswerObserver(AnswerEvaluation evaluation, int threads) {
    this.evaluation = evaluation;
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "locomo-answer");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * An observer answering {@code threads} questions at a time, judging each answer {@code
   * judgeRuns} times.
   */
  public static AnswerObserver create(Answerer answerer, Judge judge, int threads, int judgeRuns) {
    Objects.requireNonNull(answerer, "answerer");
    Objects.requireNonNull(judge, "judge");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    return new AnswerObserver(AnswerEvaluation.create(answerer, judge, 1, judgeRuns), threads);
  }

  @Override
  public CompletionStage<Map<String, Double>> onSearch(
      Conversation conversation, Question question, List<SearchHit> hits) {
    return onSearch(conversation, question, new SearchResult(hits));
  }

  /**
   * Answers from the hits and, when the search returned any, the graph relations ({@link
   * RelationLine}).
   */
  @Override
  public CompletionStage<Map<String, Double>> onSearch(
      Conversation conversation, Question question, SearchResult result) {
    List<RetrievedMemory> memories = new ArrayList<>(result.hits().size());
    for (SearchHit h : result.hits()) {
      memories.add(RetrievedMemory.of(h.memory()));
    }
    List<String> relations = result.relations().stream().map(RelationLine::render).toList();
    EvaluationItem item =
        new EvaluationItem(
            conversation.sampleId() + "#" + question.question(),
            question.question(),
            question.answer(),
            question.category(),
            memories,
            relations);
    return CompletableFuture.supplyAsync(
        () -> metrics(evaluation.run(List.of(item), n -> {})), pool);
  }

  static Map<String, Double> metrics(EvaluationResult r) {
    EvaluationResult.ItemResult item = r.items().get(0);
    Map<String, Double> out = new HashMap<>();
    long correct = item.labels().stream().filter(Boolean::booleanValue).count();
    out.put("j", 100.0 * correct / item.labels().size());
    for (int run = 0; run < item.labels().size(); run++) {
      out.put("j_run_" + run, item.labels().get(run) ? 100.0 : 0.0);
    }
    out.put("f1", 100 * item.f1());
    out.put("bleu1", 100 * item.bleu1());
    return out;
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}

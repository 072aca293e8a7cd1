package dev.engram.bench.answer;

import dev.engram.Usage;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@link AnswerEvaluation#run} measured. Immutable.
 *
 * @param overall scores over all questions (micro average, as the Mem0 harness aggregates)
 * @param byCategory scores per LoCoMo category id, in id order
 * @param items per-question results, in input order
 * @param judgeRuns how many times each answer was judged (R)
 * @param answerUsage model calls of the answer step during this run (cache hits cost nothing)
 * @param judgeUsage model calls of the judge during this run
 */
public record EvaluationResult(
    Scores overall,
    SortedMap<Integer, Scores> byCategory,
    List<ItemResult> items,
    int judgeRuns,
    Usage answerUsage,
    Usage judgeUsage) {
  public EvaluationResult {
    Objects.requireNonNull(overall, "overall");
    byCategory = Collections.unmodifiableSortedMap(new TreeMap<>(byCategory));
    items = List.copyOf(items);
    Objects.requireNonNull(answerUsage, "answerUsage");
    Objects.requireNonNull(judgeUsage, "judgeUsage");
  }

  /**
   * Scores of a group of questions, all on a 0 to 100 scale as the Mem0 paper prints them.
   *
   * @param questions how many questions
   * @param j J: the share of answers judged CORRECT, times 100, averaged over the judge runs
   * @param jStd the population standard deviation of J over the judge runs (0 for one run)
   * @param f1 mean token F1 ({@link AnswerMetrics#f1}) times 100
   * @param bleu1 mean BLEU-1 ({@link AnswerMetrics#bleu1}) times 100
   */
  public record Scores(int questions, double j, double jStd, double f1, double bleu1) {}

  /**
   * One question's outcome.
   *
   * @param item the question
   * @param answer the generated answer
   * @param labels the judge's verdict per run (true for CORRECT), run 0 first
   * @param f1 token F1 in [0, 1]
   * @param bleu1 BLEU-1 in [0, 1]
   */
  public record ItemResult(
      EvaluationItem item, String answer, List<Boolean> labels, double f1, double bleu1) {
    public ItemResult {
      Objects.requireNonNull(item, "item");
      Objects.requireNonNull(answer, "answer");
      labels = List.copyOf(labels);
    }
  }
}

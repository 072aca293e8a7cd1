package dev.engram.bench.answer;

import dev.engram.EngramException;
import dev.engram.LanguageModelException;
import dev.engram.Usage;
import dev.engram.bench.answer.EvaluationResult.ItemResult;
import dev.engram.bench.answer.EvaluationResult.Scores;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Answers and judges a list of questions and scores them as the Mem0 paper did: J (LLM judge, mean
 * and standard deviation over R judge runs), token F1 and BLEU-1, per LoCoMo category and overall.
 * Each question is answered once and judged R times (runs 0 to R-1, each cached separately);
 * questions run on a fixed pool of N threads. Results do not depend on N: scores are added up in
 * input order. The first failure stops the run and surfaces as a {@link LanguageModelException}
 * naming the item and its question. Thread-safe; {@link #run} blocks.
 */
public final class AnswerEvaluation {
  private final Answerer answerer;
  private final Judge judge;
  private final int threads;
  private final int judgeRuns;

  private AnswerEvaluation(Answerer answerer, Judge judge, int threads, int judgeRuns) {
    this.answerer = answerer;
    this.judge = judge;
    this.threads = threads;
    this.judgeRuns = judgeRuns;
  }

  /**
   * An evaluation with {@code threads} concurrent questions and {@code judgeRuns} judge runs per
   * answer (the paper used 10).
   */
  public static AnswerEvaluation create(
      Answerer answerer, Judge judge, int threads, int judgeRuns) {
    Objects.requireNonNull(answerer, "answerer");
    Objects.requireNonNull(judge, "judge");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, got " + threads);
    }
    if (judgeRuns < 1) {
      throw new IllegalArgumentException("judgeRuns must be at least 1, got " + judgeRuns);
    }
    return new AnswerEvaluation(answerer, judge, threads, judgeRuns);
  }

  /**
   * Answers, judges and scores {@code items}.
   *
   * @param progress called with the number of questions finished so far (1, 2, ... n, in that
   *     order, one call at a time, from worker threads)
   * @throws LanguageModelException if a model call fails for good; the message names the item id
   *     and question
   */
  public EvaluationResult run(List<EvaluationItem> items, IntConsumer progress) {
    Objects.requireNonNull(items, "items");
    Objects.requireNonNull(progress, "progress");
    Usage answerBefore = answerer.usage();
    Usage judgeBefore = judge.usage();
    ItemResult[] results = new ItemResult[items.size()];
    ExecutorService pool = Executors.newFixedThreadPool(threads, daemonThreads());
    try {
      CompletionService<Integer> done = new ExecutorCompletionService<>(pool);
      Object progressLock = new Object();
      int[] finished = {0};
      AtomicBoolean stopped = new AtomicBoolean();
      for (int i = 0; i < items.size(); i++) {
        int index = i;
        done.submit(
            () -> {
              if (stopped.get()) {
                return index; // an earlier question failed: the run is over
              }
              try {
                results[index] = evaluate(items.get(index));
              } catch (RuntimeException | Error e) {
                stopped.set(true);
                throw e;
              }
              synchronized (progressLock) {
                if (!stopped.get()) {
                  progress.accept(++finished[0]);
                }
              }
              return index;
            });
      }
      for (int i = 0; i < items.size(); i++) {
        await(done.take(), items);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EngramException("answer evaluation interrupted", e);
    } finally {
      pool.shutdownNow();
    }
    List<ItemResult> list = List.of(results);
    return new EvaluationResult(
        score(list, judgeRuns),
        byCategory(list),
        list,
        judgeRuns,
        minus(answerer.usage(), answerBefore),
        minus(judge.usage(), judgeBefore));
  }

  private ItemResult evaluate(EvaluationItem item) {
    try {
      String answer = answerer.answer(item.question(), item.memories(), item.relations()).text();
      List<Boolean> labels = new ArrayList<>(judgeRuns);
      for (int r = 0; r < judgeRuns; r++) {
        labels.add(judge.judge(item.question(), item.goldAnswer(), answer, r).correct());
      }
      return new ItemResult(
          item,
          answer,
          labels,
          AnswerMetrics.f1(answer, item.goldAnswer()),
          AnswerMetrics.bleu1(answer, item.goldAnswer()));
    } catch (LanguageModelException e) {
      throw new LanguageModelException(
          e.kind(),
          "item "
              + item.id()
              + " (question "
              + Texts.quote(item.question())
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private static void await(Future<Integer> future, List<EvaluationItem> items)
      throws InterruptedException {
    try {
      future.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new EngramException(
          "answer evaluation of " + items.size() + " items failed: " + cause, cause);
    }
  }

  private SortedMap<Integer, Scores> byCategory(List<ItemResult> list) {
    SortedMap<Integer, List<ItemResult>> groups = new TreeMap<>();
    for (ItemResult r : list) {
      groups.computeIfAbsent(r.item().category(), c -> new ArrayList<>()).add(r);
    }
    SortedMap<Integer, Scores> out = new TreeMap<>();
    groups.forEach((c, rs) -> out.put(c, score(rs, judgeRuns)));
    return out;
  }

  /**
   * Scores a group: J per run, then mean and population standard deviation over runs; F1 and BLEU-1
   * means.
   */
  static Scores score(List<ItemResult> results, int runs) {
    int n = results.size();
    if (n == 0) {
      return new Scores(0, 0, 0, 0, 0);
    }
    double[] jPerRun = new double[runs];
    for (int r = 0; r < runs; r++) {
      int correct = 0;
      for (ItemResult ir : results) {
        correct += ir.labels().get(r) ? 1 : 0;
      }
      jPerRun[r] = 100.0 * correct / n;
    }
    double jMean = 0;
    for (double j : jPerRun) {
      jMean += j;
    }
    jMean /= runs;
    double variance = 0;
    for (double j : jPerRun) {
      variance += (j - jMean) * (j - jMean);
    }
    double f1 = 0;
    double bleu = 0;
    for (ItemResult ir : results) {
      f1 += ir.f1();
      bleu += ir.bleu1();
    }
    return new Scores(n, jMean, Math.sqrt(variance / runs), 100.0 * f1 / n, 100.0 * bleu / n);
  }

  private static Usage minus(Usage after, Usage before) {
    return new Usage(
        after.llmCalls() - before.llmCalls(),
        after.inputTokens() - before.inputTokens(),
        after.outputTokens() - before.outputTokens(),
        after.llmTime().minus(before.llmTime()));
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "answer-eval-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}

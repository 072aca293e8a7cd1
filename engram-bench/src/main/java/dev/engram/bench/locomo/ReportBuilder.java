package dev.engram.bench.locomo;

import dev.engram.bench.Percentiles;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.LocomoReport.Baseline;
import dev.engram.bench.locomo.LocomoReport.Latency;
import dev.engram.bench.locomo.LocomoReport.QuestionScore;
import dev.engram.bench.locomo.LocomoReport.Scores;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.function.ToDoubleFunction;

/**
 * Accumulates a run into a {@link LocomoReport}. The observer's stages are awaited in {@link
 * #build()}. Not thread-safe.
 */
final class ReportBuilder {
  private final String dataset;
  private final String mode;
  private final String scopes;
  private final int turnsPerAdd;
  private final boolean speakerPrefix;
  private final boolean graph;
  private final int topK;
  private final String embedder;
  private final String fusion;
  private final List<Pending> questions = new ArrayList<>();
  private final Map<String, List<Pending>> baselines = new LinkedHashMap<>();
  private final List<Double> searchMillis = new ArrayList<>();
  private final List<Long> memoryTokens = new ArrayList<>();
  private long turns;
  private int longestMessageChars;
  private long ingestNanos;
  private long embeddingNanos;
  private long embeddedTexts;

  /**
   * A question's score and the observer's pending metrics; {@code beamType} "" for a question
   * without one, {@code conversation} "" for a baseline's.
   */
  private record Pending(
      int category,
      String beamType,
      String conversation,
      QuestionScore score,
      CompletionStage<Map<String, Double>> extra) {
    QuestionScore await() {
      return score.plusExtra(extra.toCompletableFuture().join());
    }
  }

  ReportBuilder(
      String dataset,
      String mode,
      String scopes,
      int turnsPerAdd,
      boolean speakerPrefix,
      boolean graph,
      int topK,
      String embedder,
      String fusion) {
    this.dataset = dataset;
    this.mode = mode;
    this.scopes = scopes;
    this.turnsPerAdd = turnsPerAdd;
    this.speakerPrefix = speakerPrefix;
    this.graph = graph;
    this.topK = topK;
    this.embedder = embedder;
    this.fusion = fusion;
  }

  /**
   * Records an ingest of {@code turnCount} turns in {@code nanos}, of which {@code embedding} was
   * the embedder's work.
   */
  void ingest(int turnCount, long nanos, TimedEmbedder.Spent embedding) {
    turns += turnCount;
    ingestNanos += nanos;
    embeddingNanos += embedding.nanos();
    embeddedTexts += embedding.texts();
  }

  /**
   * Records the length of the longest turn of a conversation read; the report keeps the longest of
   * all.
   */
  void longestMessage(int chars) {
    longestMessageChars = Math.max(longestMessageChars, chars);
  }

  void memoryTokens(long tokens) {
    memoryTokens.add(tokens);
  }

  /** Records a question of the conversation {@code conversation} (its sample id) and its search. */
  void question(
      String conversation,
      Question q,
      QuestionScore s,
      long searchNanos,
      CompletionStage<Map<String, Double>> extra) {
    questions.add(new Pending(q.category(), q.beamType().orElse(""), conversation, s, extra));
    searchMillis.add(searchNanos / 1e6);
  }

  void baseline(
      String name, Question q, QuestionScore s, CompletionStage<Map<String, Double>> extra) {
    baselines
        .computeIfAbsent(name, k -> new ArrayList<>())
        .add(new Pending(q.category(), q.beamType().orElse(""), "", s, extra));
  }

  LocomoReport build() {
    Map<Integer, List<QuestionScore>> byCategory = new TreeMap<>();
    Map<String, List<QuestionScore>> byBeamType = new TreeMap<>();
    Map<String, List<QuestionScore>> byConversation = new TreeMap<>();
    List<QuestionScore> all = new ArrayList<>();
    for (Pending p : questions) {
      QuestionScore s = p.await();
      byCategory.computeIfAbsent(p.category(), k -> new ArrayList<>()).add(s);
      if (!p.beamType().isEmpty()) {
        byBeamType.computeIfAbsent(p.beamType(), k -> new ArrayList<>()).add(s);
      }
      byConversation.computeIfAbsent(p.conversation(), k -> new ArrayList<>()).add(s);
      all.add(s);
    }
    Map<String, Scores> categories = new TreeMap<>();
    byCategory.forEach((k, v) -> categories.put(String.valueOf(k), scores(v)));
    Map<String, Scores> types = new TreeMap<>();
    byBeamType.forEach((k, v) -> types.put(k, scores(v)));
    Map<String, Scores> conversations = new TreeMap<>();
    byConversation.forEach((k, v) -> conversations.put(k, scores(v)));
    List<Baseline> base = new ArrayList<>();
    baselines.forEach(
        (name, pending) -> {
          Scores s = scores(pending.stream().map(Pending::await).toList());
          base.add(
              new Baseline(
                  name,
                  s.evidenceRecall(),
                  s.hit(),
                  s.answerTokenRecall(),
                  s.contextTokensMean(),
                  s.extra()));
        });
    Percentiles p = LocomoBench.percentiles(searchMillis);
    double perTurnMs = turns == 0 ? 0 : ingestNanos / 1e6 / turns;
    return new LocomoReport(
        dataset,
        mode,
        scopes,
        turnsPerAdd,
        speakerPrefix,
        graph,
        topK,
        embedder,
        fusion,
        all.size(),
        scores(all),
        categories,
        types,
        conversations,
        new Latency(
            p.at(50),
            p.at(95),
            p.at(99),
            perTurnMs,
            turns == 0 ? 0 : embeddingNanos / 1e6 / turns,
            turns == 0 ? 0 : (double) embeddedTexts / turns),
        ingestNanos == 0 ? 0 : turns / (ingestNanos / 1e9),
        memoryTokens.stream().mapToLong(Long::longValue).average().orElse(0),
        longestMessageChars,
        base);
  }

  static Scores scores(List<QuestionScore> v) {
    List<QuestionScore> withEvidence = v.stream().filter(QuestionScore::hasEvidence).toList();
    Map<String, List<Double>> extra = new TreeMap<>();
    for (QuestionScore s : v) {
      s.extra().forEach((k, x) -> extra.computeIfAbsent(k, key -> new ArrayList<>()).add(x));
    }
    Map<String, Double> extraMeans = new TreeMap<>();
    extra.forEach(
        (k, xs) ->
            extraMeans.put(k, xs.stream().mapToDouble(Double::doubleValue).average().orElse(0)));
    return new Scores(
        v.size(),
        withEvidence.size(),
        mean(withEvidence, QuestionScore::evidenceRecall),
        mean(withEvidence, QuestionScore::hit),
        mean(v, QuestionScore::answerTokenRecall),
        mean(v, QuestionScore::contextTokens),
        extraMeans);
  }

  private static double mean(List<QuestionScore> v, ToDoubleFunction<QuestionScore> f) {
    return v.stream().mapToDouble(f).average().orElse(0);
  }
}

package dev.engram.bench.locomo;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.engram.bench.Percentiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The result of a LoCoMo run, in the JSON shape the harness issue fixes (snake_case keys), with a Markdown table.
 */
@JsonPropertyOrder({"dataset", "mode", "graph", "top_k", "embedder", "fusion", "questions", "overall", "by_category",
    "latency_ms", "ingest_turns_per_second", "memory_tokens_per_conversation", "baselines"})
public record LocomoReport(
    String dataset,
    String mode,
    boolean graph,
    @JsonProperty("top_k") int topK,
    String embedder,
    String fusion,
    int questions,
    Scores overall,
    @JsonProperty("by_category") Map<String, Scores> byCategory,
    @JsonProperty("latency_ms") Latency latencyMs,
    @JsonProperty("ingest_turns_per_second") double ingestTurnsPerSecond,
    @JsonProperty("memory_tokens_per_conversation") double memoryTokensPerConversation,
    List<Baseline> baselines) {

  /** Mean scores over a set of questions. */
  @JsonPropertyOrder({"questions", "evidence_recall", "hit", "answer_token_recall", "context_tokens_mean"})
  public record Scores(int questions, @JsonProperty("evidence_recall") double evidenceRecall, double hit,
                       @JsonProperty("answer_token_recall") double answerTokenRecall,
                       @JsonProperty("context_tokens_mean") double contextTokensMean) {}

  /** Search latency percentiles and the mean ingest time per turn, in milliseconds. */
  @JsonPropertyOrder({"search_p50", "search_p95", "search_p99", "ingest_per_turn_mean"})
  public record Latency(@JsonProperty("search_p50") double searchP50, @JsonProperty("search_p95") double searchP95,
                        @JsonProperty("search_p99") double searchP99,
                        @JsonProperty("ingest_per_turn_mean") double ingestPerTurnMean) {}

  /** A baseline evaluated with the same metrics. */
  @JsonPropertyOrder({"name", "evidence_recall", "hit", "context_tokens_mean"})
  public record Baseline(String name, @JsonProperty("evidence_recall") double evidenceRecall, double hit,
                         @JsonProperty("context_tokens_mean") double contextTokensMean) {}

  /** One question's scores. */
  record QuestionScore(double evidenceRecall, double hit, double answerTokenRecall, int contextTokens) {}

  public void writeJson(Path file) {
    try {
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), this);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  public String toJson() {
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(this);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A Markdown table: one row per category id and one overall. */
  public String toMarkdown() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format("LoCoMo `%s`, mode `%s`, top-k %d, embedder `%s`, fusion `%s`%n%n", dataset, mode, topK,
        embedder, fusion));
    sb.append("| category | questions | evidence recall@k | hit@k | answer-token recall@k | context tokens |\n");
    sb.append("|---|---|---|---|---|---|\n");
    byCategory.forEach((k, s) -> row(sb, k + " (" + Locomo.categoryLabel(Integer.parseInt(k)) + ")", s));
    row(sb, "**overall**", overall);
    sb.append(String.format("%nsearch p50 %.2f ms, p95 %.2f ms, p99 %.2f ms; ingest %.1f turns/s (%.2f ms/turn); "
            + "memory tokens per conversation %.0f%n", latencyMs.searchP50(), latencyMs.searchP95(),
        latencyMs.searchP99(), ingestTurnsPerSecond, latencyMs.ingestPerTurnMean(), memoryTokensPerConversation));
    return sb.toString();
  }

  private static void row(StringBuilder sb, String label, Scores s) {
    sb.append(String.format("| %s | %d | %.3f | %.3f | %.3f | %.0f |%n", label, s.questions(), s.evidenceRecall(),
        s.hit(), s.answerTokenRecall(), s.contextTokensMean()));
  }

  /** Accumulates a run. Not thread-safe. */
  static final class Builder {
    private final String dataset;
    private final String mode;
    private final int topK;
    private final String embedder;
    private final String fusion;
    private final Map<Integer, List<QuestionScore>> scores = new TreeMap<>();
    private final List<Double> searchMillis = new ArrayList<>();
    private long turns;
    private long ingestNanos;
    private final List<Long> memoryTokens = new ArrayList<>();

    Builder(String dataset, String mode, int topK, String embedder, String fusion) {
      this.dataset = dataset;
      this.mode = mode;
      this.topK = topK;
      this.embedder = embedder;
      this.fusion = fusion;
    }

    void ingest(int turnCount, long nanos) {
      turns += turnCount;
      ingestNanos += nanos;
    }

    void memoryTokens(long tokens) {
      memoryTokens.add(tokens);
    }

    void question(int category, QuestionScore s, long searchNanos) {
      scores.computeIfAbsent(category, k -> new ArrayList<>()).add(s);
      searchMillis.add(searchNanos / 1e6);
    }

    LocomoReport build() {
      Map<String, Scores> byCategory = new TreeMap<>();
      List<QuestionScore> all = new ArrayList<>();
      scores.forEach((k, v) -> {
        byCategory.put(String.valueOf(k), mean(v));
        all.addAll(v);
      });
      Percentiles p = LocomoBench.percentiles(searchMillis);
      double perTurnMs = turns == 0 ? 0 : ingestNanos / 1e6 / turns;
      return new LocomoReport(dataset, mode, false, topK, embedder, fusion, all.size(), mean(all), byCategory,
          new Latency(p.at(50), p.at(95), p.at(99), perTurnMs),
          ingestNanos == 0 ? 0 : turns / (ingestNanos / 1e9),
          memoryTokens.stream().mapToLong(Long::longValue).average().orElse(0), List.of());
    }

    private static Scores mean(List<QuestionScore> v) {
      return new Scores(v.size(),
          v.stream().mapToDouble(QuestionScore::evidenceRecall).average().orElse(0),
          v.stream().mapToDouble(QuestionScore::hit).average().orElse(0),
          v.stream().mapToDouble(QuestionScore::answerTokenRecall).average().orElse(0),
          v.stream().mapToDouble(QuestionScore::contextTokens).average().orElse(0));
    }
  }
}

package dev.engram.bench.locomo;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.GraphRelation;
import dev.engram.SearchHit;
import dev.engram.TokenCounter;
import dev.engram.ValidationException;
import dev.engram.bench.ReportJson;
import dev.engram.bench.RetrievalMetrics;
import dev.engram.bench.locomo.Locomo.Question;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The result of a LoCoMo run, in the JSON shape the harness issue fixes (snake_case keys; {@code
 * scopes}, {@code turns_per_add}, {@code speaker_prefix}, {@code embedder}, {@code fusion}, {@code
 * evidence_questions} and {@code answer_token_recall} of baselines added), with a Markdown
 * rendering ({@link LocomoMarkdown}) and a chart ({@link LocomoChart}). Evidence recall and hit are
 * averaged over the questions that have gold evidence ({@code evidence_questions}); the other
 * metrics over all scored questions. Metrics from a {@link QuestionObserver} appear beside the
 * built-in ones, at both levels. Questions that carry a BEAM type ({@link Question#beamType()}) are
 * also scored per type ({@code by_beam_type}, left out of the JSON when no question has one); every
 * conversation's questions are scored apart too ({@code by_conversation}, by sample id: its
 * off-topic metrics are those of its store asked the next conversation's questions, so a pair of
 * conversations on one subject shows there); {@code longest_message_chars} is the longest turn of
 * the conversations read, which the stores were opened to accept ({@code
 * ConversationStore#textLimit}).
 */
@JsonPropertyOrder({
  "dataset",
  "mode",
  "scopes",
  "turns_per_add",
  "speaker_prefix",
  "graph",
  "top_k",
  "embedder",
  "fusion",
  "questions",
  "overall",
  "by_category",
  "by_beam_type",
  "by_conversation",
  "latency_ms",
  "ingest_turns_per_second",
  "memory_tokens_per_conversation",
  "longest_message_chars",
  "baselines"
})
public record LocomoReport(
    String dataset,
    String mode,
    String scopes,
    @JsonProperty("turns_per_add") int turnsPerAdd,
    @JsonProperty("speaker_prefix") boolean speakerPrefix,
    boolean graph,
    @JsonProperty("top_k") int topK,
    String embedder,
    String fusion,
    int questions,
    Scores overall,
    @JsonProperty("by_category") Map<String, Scores> byCategory,
    @JsonProperty("by_beam_type") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        Map<String, Scores> byBeamType,
    @JsonProperty("by_conversation") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        Map<String, Scores> byConversation,
    @JsonProperty("latency_ms") Latency latencyMs,
    @JsonProperty("ingest_turns_per_second") double ingestTurnsPerSecond,
    @JsonProperty("memory_tokens_per_conversation") double memoryTokensPerConversation,
    @JsonProperty("longest_message_chars") int longestMessageChars,
    List<Baseline> baselines) {

  public LocomoReport {
    byBeamType =
        byBeamType == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(byBeamType));
    byConversation =
        byConversation == null
            ? Map.of()
            : Collections.unmodifiableMap(new TreeMap<>(byConversation));
  }

  /**
   * Mean scores over a set of questions, plus the observer's metrics ({@code extra}, flattened in
   * JSON).
   */
  @JsonPropertyOrder({
    "questions",
    "evidence_questions",
    "evidence_recall",
    "hit",
    "answer_token_recall",
    "context_tokens_mean"
  })
  public record Scores(
      int questions,
      @JsonProperty("evidence_questions") int evidenceQuestions,
      @JsonProperty("evidence_recall") double evidenceRecall,
      double hit,
      @JsonProperty("answer_token_recall") double answerTokenRecall,
      @JsonProperty("context_tokens_mean") double contextTokensMean,
      @JsonIgnore @JsonAnySetter Map<String, Double> extra) {
    public Scores {
      extra = extra == null ? Map.of() : Map.copyOf(extra);
    }

    @JsonAnyGetter
    Map<String, Double> extraJson() {
      return new TreeMap<>(extra);
    }

    /** A copy with these metrics added to (or replacing) {@link #extra()}. */
    public Scores plus(Map<String, Double> metrics) {
      return new Scores(
          questions,
          evidenceQuestions,
          evidenceRecall,
          hit,
          answerTokenRecall,
          contextTokensMean,
          merge(extra, metrics));
    }
  }

  /**
   * Search latency percentiles and the mean ingest time per turn, in milliseconds; of that ingest
   * time, the embedder's wall time per turn ({@code ingest_embedding_per_turn_mean}) and the texts
   * it embedded per turn (memory texts, passages, contexts): the embedder's own rate, which bounds
   * the ingest's ({@link #embedderTurnsPerSecond}).
   */
  @JsonPropertyOrder({
    "search_p50",
    "search_p95",
    "search_p99",
    "ingest_per_turn_mean",
    "ingest_embedding_per_turn_mean",
    "ingest_embedded_texts_per_turn"
  })
  public record Latency(
      @JsonProperty("search_p50") double searchP50,
      @JsonProperty("search_p95") double searchP95,
      @JsonProperty("search_p99") double searchP99,
      @JsonProperty("ingest_per_turn_mean") double ingestPerTurnMean,
      @JsonProperty("ingest_embedding_per_turn_mean") double ingestEmbeddingPerTurnMean,
      @JsonProperty("ingest_embedded_texts_per_turn") double ingestEmbeddedTextsPerTurn) {

    /** The share of the ingest's time spent in the embedder, 0 when nothing was measured. */
    public double embeddingShare() {
      return ingestPerTurnMean > 0 ? ingestEmbeddingPerTurnMean / ingestPerTurnMean : 0;
    }

    /**
     * Turns per second if an add did nothing but embed: the embedder's own rate on these turns, the
     * bound of the ingest's; 0 when nothing was measured.
     */
    public double embedderTurnsPerSecond() {
      return ingestEmbeddingPerTurnMean > 0 ? 1000 / ingestEmbeddingPerTurnMean : 0;
    }

    /** Texts the embedder embedded per second of its own time; 0 when nothing was measured. */
    public double embedderTextsPerSecond() {
      return ingestEmbeddingPerTurnMean > 0
          ? ingestEmbeddedTextsPerTurn * 1000 / ingestEmbeddingPerTurnMean
          : 0;
    }
  }

  /** A baseline evaluated with the same metrics, on the same questions. */
  @JsonPropertyOrder({
    "name",
    "evidence_recall",
    "hit",
    "answer_token_recall",
    "context_tokens_mean"
  })
  public record Baseline(
      String name,
      @JsonProperty("evidence_recall") double evidenceRecall,
      double hit,
      @JsonProperty("answer_token_recall") double answerTokenRecall,
      @JsonProperty("context_tokens_mean") double contextTokensMean,
      @JsonIgnore @JsonAnySetter Map<String, Double> extra) {
    public Baseline {
      Objects.requireNonNull(name, "name");
      extra = extra == null ? Map.of() : Map.copyOf(extra);
    }

    @JsonAnyGetter
    Map<String, Double> extraJson() {
      return new TreeMap<>(extra);
    }
  }

  /**
   * One question's scores. With the graph memory on, the retrieved source ids are those of the hits
   * and those of the relations ({@link GraphRelation#sourceIds()}), and the retrieved texts are the
   * hits' texts followed by the relations' facts: what the engine's token budget counts for each (a
   * memory's text, a relation's fact), without what a prompt adds around either (dates, speakers;
   * {@code context_tokens_prompt} counts those lines, see {@link LocomoBench}).
   *
   * @param hasEvidence whether the question has gold evidence (evidence recall and hit count only
   *     then)
   * @param evidenceRecall share of the gold dia_ids among the retrieved source ids
   * @param hit 1 if any gold dia_id was retrieved
   * @param answerTokenRecall share of the answer's content tokens in the retrieved texts
   * @param contextTokens cl100k tokens of the retrieved texts joined by newlines
   * @param extra further metrics: the graph's and the observer's
   */
  record QuestionScore(
      boolean hasEvidence,
      double evidenceRecall,
      double hit,
      double answerTokenRecall,
      int contextTokens,
      Map<String, Double> extra) {
    static QuestionScore of(Question q, List<SearchHit> hits) {
      return ofSearch(q, hits, List.of());
    }

    static QuestionScore ofSearch(Question q, List<SearchHit> hits, List<GraphRelation> relations) {
      Set<String> sources = new HashSet<>();
      List<String> texts = new ArrayList<>();
      for (SearchHit h : hits) {
        sources.addAll(h.memory().sourceIds());
        texts.add(h.memory().text());
      }
      for (GraphRelation r : relations) {
        sources.addAll(r.sourceIds());
        texts.add(r.fact());
      }
      return of(q, texts, sources);
    }

    static QuestionScore of(Question q, List<String> texts, Collection<String> sources) {
      return new QuestionScore(
          !q.evidence().isEmpty(),
          RetrievalMetrics.evidenceRecall(q.evidence(), sources),
          RetrievalMetrics.hit(q.evidence(), sources),
          RetrievalMetrics.answerTokenRecall(q.answer(), texts),
          TokenCounter.cl100k().count(String.join("\n", texts)),
          Map.of());
    }

    QuestionScore withExtra(Map<String, Double> metrics) {
      return new QuestionScore(
          hasEvidence, evidenceRecall, hit, answerTokenRecall, contextTokens, metrics);
    }

    /** A copy with these metrics added to (or replacing) {@link #extra()}. */
    QuestionScore plusExtra(Map<String, Double> metrics) {
      return metrics.isEmpty() ? this : withExtra(merge(extra, metrics));
    }
  }

  /**
   * A copy with more metrics, merged into the observer's ({@link Scores#extra()}): for metrics
   * computed after the retrieval run, for example {@code j}, {@code j_std}, {@code f1}, {@code
   * bleu1} of an answer evaluation over the hits a {@link QuestionObserver} collected.
   *
   * @param overall metrics of all questions
   * @param byCategory metrics per category id ({@code "1"} to {@code "4"}); ids the report lacks
   *     are ignored. The per-type and per-conversation scores ({@link #byBeamType()}, {@link
   *     #byConversation()}) keep the retrieval metrics only
   */
  public LocomoReport withMetrics(
      Map<String, Double> overall, Map<String, Map<String, Double>> byCategory) {
    Map<String, Scores> categories = new TreeMap<>();
    this.byCategory.forEach(
        (k, v) -> categories.put(k, v.plus(byCategory.getOrDefault(k, Map.of()))));
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
        questions,
        this.overall.plus(overall),
        categories,
        byBeamType,
        byConversation,
        latencyMs,
        ingestTurnsPerSecond,
        memoryTokensPerConversation,
        longestMessageChars,
        baselines);
  }

  /** A copy with more metrics for the baseline of this name (see {@link #withMetrics}). */
  public LocomoReport withBaselineMetrics(String name, Map<String, Double> metrics) {
    List<Baseline> out = new ArrayList<>();
    for (Baseline b : baselines) {
      out.add(
          b.name().equals(name)
              ? new Baseline(
                  b.name(),
                  b.evidenceRecall(),
                  b.hit(),
                  b.answerTokenRecall(),
                  b.contextTokensMean(),
                  merge(b.extra(), metrics))
              : b);
    }
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
        questions,
        overall,
        byCategory,
        byBeamType,
        byConversation,
        latencyMs,
        ingestTurnsPerSecond,
        memoryTokensPerConversation,
        longestMessageChars,
        out);
  }

  private static Map<String, Double> merge(Map<String, Double> a, Map<String, Double> b) {
    Map<String, Double> m = new TreeMap<>(a);
    m.putAll(b);
    return m;
  }

  /** The report as indented JSON. */
  public String toJson() {
    return ReportJson.text(this, "the LoCoMo report");
  }

  /** Writes {@link #toJson()} to a file. */
  public void writeJson(Path file) {
    ReportJson.write(this, file, "the LoCoMo report");
  }

  /**
   * Reads a report written by {@link #writeJson}, for comparing runs, with the graph's and the
   * observer's metrics.
   *
   * @throws ValidationException if the file is missing or is not such a report
   */
  public static LocomoReport readJson(Path file) {
    try {
      return new ObjectMapper()
          .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
          .readValue(file.toFile(), LocomoReport.class);
    } catch (NoSuchFileException | FileNotFoundException e) {
      throw new ValidationException("report", "'" + file + "' does not exist");
    } catch (IOException e) {
      throw new ValidationException(
          "report", "'" + file + "' is not a LoCoMo report: " + e.getMessage());
    }
  }

  /**
   * A Markdown table: one row per category id and one overall, then one row per BEAM type (if any),
   * then the baselines.
   */
  public String toMarkdown() {
    return LocomoMarkdown.render(this);
  }

  /** An SVG chart of evidence recall against context tokens for this run and its baselines. */
  public String toSvg() {
    return LocomoChart.svg(List.of(this));
  }

  /**
   * The label of this run in tables and charts, for example {@code engram extract/speaker k=10},
   * {@code engram raw+prefix/conversation k=10} or {@code engram observations+graph/conversation
   * k=10}.
   */
  public String runLabel() {
    return "engram "
        + mode
        + (speakerPrefix ? "+prefix" : "")
        + (graph ? "+graph" : "")
        + "/"
        + scopes
        + " k="
        + topK;
  }
}

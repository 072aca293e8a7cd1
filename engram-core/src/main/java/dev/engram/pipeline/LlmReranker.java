package dev.engram.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.MemoryItem;
import dev.engram.RerankerException;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.Reranker;
import dev.engram.spi.UsageMeter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A reranker over a {@link LanguageModel}: one prompt lists the query and the numbered candidates,
 * the model answers {@code {"scores": [{"id": 0, "score": 0.9}, ...]}}. The answer is read
 * leniently: the first JSON object in the text (code fences and think blocks ignored); {@code
 * scores} may also be a plain array of numbers in candidate order or an object keyed by id; scores
 * may be numbers or numeric strings; a model that scored on 0-10 or 0-100 is scaled back to [0, 1];
 * unknown ids are ignored, a repeated id keeps its highest score, and a candidate the model left
 * out scores 0 (judged irrelevant). An answer with no usable score at all is unusable: it is asked
 * again (the {@link ModelCaller}'s policy, which also retries rate limits and server errors) and
 * then fails with a {@link RerankerException}, on which the engine keeps the fused order and logs
 * the failure. Thread-safe.
 */
public final class LlmReranker implements Reranker {
  /** The pipeline step name in metrics and errors. */
  static final String STEP = "rerank";

  /** Longest memory text shown to the model, in characters; longer ones are cut. */
  static final int MAX_TEXT = 600;

  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final ModelCaller caller;
  private final int candidates;

  /**
   * @param caller the model, with its retry policy
   * @param candidates how many fused hits to score per search (at least 1; the prompt grows with
   *     it)
   */
  public LlmReranker(ModelCaller caller, int candidates) {
    this.caller = Objects.requireNonNull(caller, "caller");
    if (candidates < 1) {
      throw new IllegalArgumentException("candidates must be at least 1, got " + candidates);
    }
    this.candidates = candidates;
  }

  /**
   * A reranker over {@code model}: the default retry policy, {@value Reranker#DEFAULT_CANDIDATES}
   * candidates.
   */
  public static LlmReranker of(LanguageModel model) {
    return new LlmReranker(new ModelCaller(model, RetryPolicy.defaults()), DEFAULT_CANDIDATES);
  }

  @Override
  public int candidates() {
    return candidates;
  }

  @Override
  public List<Double> scores(String query, List<MemoryItem> items) {
    if (items.isEmpty()) {
      return List.of();
    }
    LanguageModel.Prompt prompt =
        new LanguageModel.Prompt(
            Prompts.RERANK,
            userMessage(query, items),
            "scores",
            Schemas.SCORES,
            64 + 16 * items.size(),
            0.0);
    try {
      return caller.callJson(
          STEP, prompt, new UsageMeter(), answer -> scores(answer, items.size()));
    } catch (LanguageModelException e) {
      throw new RerankerException("the LLM reranker failed: " + e.getMessage(), e);
    }
  }

  static String userMessage(String query, List<MemoryItem> items) {
    StringBuilder sb = new StringBuilder("Query: ").append(query.strip()).append("\n\nMemories:\n");
    for (int i = 0; i < items.size(); i++) {
      MemoryItem m = items.get(i);
      String text = m.text().strip().replace('\n', ' ');
      if (text.length() > MAX_TEXT) {
        text = text.substring(0, MAX_TEXT) + "...";
      }
      sb.append('[').append(i).append("] ");
      if (m.eventTime() != null) {
        sb.append('(').append(DAY.format(m.eventTime())).append(") ");
      }
      sb.append(text).append('\n');
    }
    return sb.toString();
  }

  /** The scores of an answer, one per candidate; throws INVALID_RESPONSE when none is usable. */
  static List<Double> scores(JsonNode answer, int n) {
    JsonNode scores = answer.get("scores");
    double[] out = new double[n];
    Arrays.fill(out, Double.NaN);
    if (scores != null && scores.isArray()) {
      for (int i = 0; i < scores.size(); i++) {
        JsonNode e = scores.get(i);
        if (e.isObject()) {
          put(out, id(e.get("id")), number(e.get("score")));
        } else if (scores.size() == n) {
          put(out, i, number(e)); // a plain array in candidate order
        }
      }
    } else if (scores != null && scores.isObject()) {
      scores.properties().forEach(f -> put(out, id(f.getKey()), number(f.getValue())));
    }
    double max = Arrays.stream(out).filter(d -> !Double.isNaN(d)).max().orElse(Double.NaN);
    if (Double.isNaN(max)) {
      throw new LanguageModelException(
          LanguageModelException.Kind.INVALID_RESPONSE,
          STEP
              + ": the answer scores none of the "
              + n
              + " memories: "
              + JsonAnswers.preview(answer.toString()));
    }
    double scale = max <= 1 ? 1 : max <= 10 ? 10 : max <= 100 ? 100 : Double.NaN;
    if (Double.isNaN(scale)) {
      throw new LanguageModelException(
          LanguageModelException.Kind.INVALID_RESPONSE,
          STEP + ": scores must lie in [0, 1], got " + max);
    }
    List<Double> result = new ArrayList<>(n);
    for (double d : out) {
      result.add(Double.isNaN(d) ? 0.0 : Math.max(0, Math.min(1, d / scale)));
    }
    return result;
  }

  private static void put(double[] out, int id, double score) {
    if (id >= 0 && id < out.length && !Double.isNaN(score) && score >= 0) {
      out[id] = Double.isNaN(out[id]) ? score : Math.max(out[id], score);
    }
  }

  private static int id(JsonNode n) {
    return n == null ? -1 : n.isIntegralNumber() ? n.asInt() : id(n.asText());
  }

  private static int id(String s) {
    try {
      return Integer.parseInt(s.strip().replaceAll("^\\[|\\]$", ""));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static double number(JsonNode n) {
    if (n == null || n.isNull()) {
      return Double.NaN;
    }
    if (n.isNumber()) {
      return n.asDouble();
    }
    try {
      return Double.parseDouble(n.asText().strip());
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}

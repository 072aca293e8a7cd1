package dev.engram.bench.answer;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Token F1 and BLEU-1 of a generated answer against the gold answer, computed as the Mem0 paper's
 * harness computes them (mem0ai/mem0 {@code evaluation/metrics/utils.py}), so that Engram's figures
 * can be compared with its tables. Both are in [0, 1]; either is 0 when the prediction or the gold
 * answer is empty. Thread-safe (stateless).
 *
 * <ul>
 *   <li>{@link #f1}: lower-case, replace {@code . , ! ?} by spaces, split on whitespace, take the
 *       <em>sets</em> of tokens; precision = |common| / |predicted set|, recall = |common| / |gold
 *       set|, F1 = 2PR / (P + R).
 *   <li>{@link #bleu1}: NLTK {@code sentence_bleu([gold], pred, weights=(1, 0, 0, 0),
 *       smoothing_function=SmoothingFunction().method1)} over {@code word_tokenize} of the
 *       lower-cased strings: clipped unigram precision times the brevity penalty {@code exp(1 -
 *       r/c)} when the prediction (c tokens) is not longer than the gold answer (r tokens).
 *       Tokenisation approximates NLTK's, see {@link WordTokenizer}.
 * </ul>
 */
public final class AnswerMetrics {
  private static final Pattern WHITESPACE =
      Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);

  private AnswerMetrics() {}

  /** Token-set F1 as the Mem0 harness computes it. */
  public static double f1(String prediction, String gold) {
    Objects.requireNonNull(prediction, "prediction");
    Objects.requireNonNull(gold, "gold");
    if (prediction.isEmpty() || gold.isEmpty()) {
      return 0.0;
    }
    Set<String> predicted = simpleTokens(prediction.strip());
    Set<String> reference = simpleTokens(gold.strip());
    if (predicted.isEmpty() || reference.isEmpty()) {
      return 0.0;
    }
    Set<String> common = new HashSet<>(predicted);
    common.retainAll(reference);
    double precision = (double) common.size() / predicted.size();
    double recall = (double) common.size() / reference.size();
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
  }

  /** BLEU-1 with NLTK's smoothing method 1 and brevity penalty, as the Mem0 harness computes it. */
  public static double bleu1(String prediction, String gold) {
    Objects.requireNonNull(prediction, "prediction");
    Objects.requireNonNull(gold, "gold");
    if (prediction.isEmpty() || gold.isEmpty()) {
      return 0.0;
    }
    return bleu1(
        WordTokenizer.tokenizeLowercased(prediction.strip()),
        WordTokenizer.tokenizeLowercased(gold.strip()));
  }

  /** BLEU-1 of already tokenised texts (one reference). */
  static double bleu1(List<String> hypothesis, List<String> reference) {
    Map<String, Integer> available = new HashMap<>();
    for (String t : reference) {
      available.merge(t, 1, Integer::sum);
    }
    Map<String, Integer> used = new HashMap<>();
    int matched = 0;
    for (String t : hypothesis) {
      int n = used.merge(t, 1, Integer::sum);
      if (n <= available.getOrDefault(t, 0)) {
        matched++; // clipped count: a gold token is used at most as often as it occurs in the gold
        // answer
      }
    }
    if (matched == 0) {
      return 0.0; // NLTK returns 0 when no unigram matches, before smoothing
    }
    double precision = (double) matched / hypothesis.size();
    // Smoothing method 1 only changes the zero-count higher orders, whose weight is 0: they drop
    // out.
    return brevityPenalty(reference.size(), hypothesis.size()) * Math.exp(Math.log(precision));
  }

  /**
   * NLTK's brevity penalty for a reference of {@code r} tokens and a hypothesis of {@code c}
   * tokens.
   */
  static double brevityPenalty(int r, int c) {
    if (c > r) {
      return 1.0;
    }
    if (c == 0) {
      return 0.0;
    }
    return Math.exp(1.0 - (double) r / c);
  }

  private static Set<String> simpleTokens(String text) {
    String t =
        text.toLowerCase(Locale.ROOT)
            .replace('.', ' ')
            .replace(',', ' ')
            .replace('!', ' ')
            .replace('?', ' ')
            .strip();
    Set<String> tokens = new HashSet<>();
    if (!t.isEmpty()) {
      tokens.addAll(List.of(WHITESPACE.split(t)));
    }
    return tokens;
  }
}

package dev.engram.spi;

import dev.engram.ValidationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * An embedder's calibrated relevance: the probability that a memory is relevant to a query, given
 * the cosine similarity of their embeddings and the share of the query's content words the memory
 * holds ({@code dev.engram.analysis.QueryAnalyzer#share}), as the logistic map {@code p = 1 / (1 +
 * exp(-(slope * cosine + keywordSlope * share + intercept)))}. With a positive slope and a
 * non-negative keyword slope the map is monotone in both signals (a closer memory, or one holding
 * more of the query's words, is never less relevant) and stays in [0, 1]. Search scores every hit
 * with it ({@code SearchHit#score()}), so a threshold means the same with every model and on any
 * data: 0.5 is "as likely relevant as not".
 *
 * <p>A <b>fitted</b> calibration comes from labelled pairs (a question against memories of its own
 * store, raw turns and extracted facts: the evidence memories are relevant, the others are not, the
 * two classes weighted equally), fitted per embedder by {@code engram bench calibrate} and shipped
 * with the embedder as a properties resource ({@link #load}). An embedder without one gets the
 * {@linkplain #fallback(double) fallback}, built from the embedder's {@link
 * Embedder#relevanceFloor() floor} (the cosine of unrelated texts) alone: 0.01 at the floor and
 * less below it, 0.5 a quarter of the way from the floor to 1, about 1 at 1, whatever the keyword
 * share (a model whose cosines were never fitted has no measured weight for it).
 *
 * @param slope the logistic's slope on the cosine; positive
 * @param keywordSlope the logistic's slope on the keyword share; zero or positive
 * @param intercept the logistic's intercept
 * @param source where the parameters come from (a fit's data and command, or "fallback")
 */
public record RelevanceCalibration(
    double slope, double keywordSlope, double intercept, String source) {
  /**
   * The fallback's log-odds at the floor (and, negated, at cosine 1): probability 0.01, so an
   * unrelated memory scores near 0 and never reaches a threshold anyone sends.
   */
  static final double FALLBACK_EDGE_LOG_ODDS = Math.log(99);

  /**
   * Where the fallback's probability 0.5 lies, as a share of the span from the floor to 1: a
   * quarter. bge-small's fitted map puts it a seventh of the way up from its floor (0.573 over
   * 0.5); the fallback, for models whose floor is 0 or only roughly measured (bag-of-words test
   * embedders give a memory sharing one word of four with the query a cosine of about 0.4), leaves
   * more room above the floor.
   */
  static final double FALLBACK_MIDPOINT = 0.25;

  public RelevanceCalibration {
    if (!(slope > 0) || !Double.isFinite(slope)) {
      throw new ValidationException("relevance.slope", "must be a positive number, got " + slope);
    }
    if (!(keywordSlope >= 0) || !Double.isFinite(keywordSlope)) {
      throw new ValidationException(
          "relevance.keyword_slope", "must be zero or a positive number, got " + keywordSlope);
    }
    if (!Double.isFinite(intercept)) {
      throw new ValidationException(
          "relevance.intercept", "must be a finite number, got " + intercept);
    }
    if (source == null || source.isBlank()) {
      throw new ValidationException("relevance.source", "must be given");
    }
  }

  /** A map of the cosine alone (keyword slope 0). */
  public RelevanceCalibration(double slope, double intercept, String source) {
    this(slope, 0.0, intercept, source);
  }

  /**
   * The probability, in [0, 1], that a memory whose embedding has this cosine similarity with the
   * query's, and that holds no word of the query, is relevant to it. Monotone non-decreasing in the
   * cosine; NaN maps to 0.
   */
  public double probability(double cosine) {
    return probability(cosine, 0.0);
  }

  /**
   * The probability, in [0, 1], that a memory is relevant to the query, given the cosine of their
   * embeddings and the share in [0, 1] of the query's content words it holds. Monotone
   * non-decreasing in both; a NaN cosine maps to 0.
   */
  public double probability(double cosine, double keywordShare) {
    if (Double.isNaN(cosine)) {
      return 0.0;
    }
    double share = Double.isNaN(keywordShare) ? 0 : Math.max(0, Math.min(1, keywordShare));
    double z = slope * cosine + keywordSlope * share + intercept;
    return z >= 0 ? 1.0 / (1.0 + Math.exp(-z)) : Math.exp(z) / (1.0 + Math.exp(z));
  }

  /**
   * The cosine at which the probability is {@code p}, in (0, 1), for a memory that holds none of
   * the query's words: the inverse of {@link #probability(double)}.
   */
  public double cosineAt(double p) {
    return cosineAt(p, 0.0);
  }

  /** The cosine at which the probability is {@code p}, in (0, 1), at this keyword share. */
  public double cosineAt(double p, double keywordShare) {
    if (!(p > 0 && p < 1)) {
      throw new ValidationException("p", "must be in (0, 1), got " + p);
    }
    return (Math.log(p / (1 - p)) - intercept - keywordSlope * keywordShare) / slope;
  }

  /**
   * True for a map fitted on labelled data, false for the {@linkplain #fallback(double) fallback}
   * (whose source starts with "fallback"): its probabilities are only as good as the floor it was
   * built from, so whole-search decisions (the off-topic cut) are left to fitted maps; scores and
   * thresholds read either.
   */
  public boolean fitted() {
    return !source.startsWith(FALLBACK_SOURCE);
  }

  /** The source of every fallback map, and the prefix no fitted map's source may start with. */
  static final String FALLBACK_SOURCE = "fallback";

  /**
   * The map for an embedder with no fitted one, from its relevance floor alone: a logistic of the
   * cosine with probability 0.01 at the floor (and less below it), 0.5 {@value #FALLBACK_MIDPOINT}
   * of the way from the floor to 1 and about 1 at 1, keyword slope 0. An unrelated memory (cosine
   * at or under the floor; about 0 for models whose floor is 0) scores about 0.01 or less, so no
   * threshold keeps it and no query it is the best candidate of passes the off-topic cut.
   */
  public static RelevanceCalibration fallback(double floor) {
    if (!(floor >= 0 && floor < 1)) {
      throw new ValidationException("relevanceFloor", "must be in [0, 1), got " + floor);
    }
    double span = 1 - floor;
    double slope = FALLBACK_EDGE_LOG_ODDS / (FALLBACK_MIDPOINT * span);
    double midpoint = floor + FALLBACK_MIDPOINT * span;
    return new RelevanceCalibration(
        slope, 0.0, -slope * midpoint, FALLBACK_SOURCE + " (floor " + floor + ")");
  }

  /**
   * The calibration in a properties resource beside {@code owner} (keys {@code slope}, {@code
   * keyword_slope} (0 if absent), {@code intercept} and {@code source}), as {@code engram bench
   * calibrate} writes it.
   *
   * @throws IllegalStateException if the resource is missing or malformed: a shipped calibration
   *     that does not load is a packaging error
   */
  public static RelevanceCalibration load(Class<?> owner, String resource) {
    Properties p = new Properties();
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "relevance calibration " + resource + " not found beside " + owner.getName());
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read relevance calibration " + resource, e);
    }
    try {
      return new RelevanceCalibration(
          Double.parseDouble(p.getProperty("slope", "")),
          Double.parseDouble(p.getProperty("keyword_slope", "0")),
          Double.parseDouble(p.getProperty("intercept", "")),
          p.getProperty("source", resource));
    } catch (NumberFormatException | ValidationException e) {
      throw new IllegalStateException("malformed relevance calibration " + resource, e);
    }
  }
}

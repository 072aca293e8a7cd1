package dev.engram.spi;

import dev.engram.ValidationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * An embedder's calibrated relevance: the probability that a memory is relevant to a query, given
 * the cosine similarity of their embeddings, as the logistic map {@code p = 1 / (1 + exp(-(slope *
 * cosine + intercept)))}. With a positive slope the map is monotone (a closer memory is never less
 * relevant) and stays in [0, 1]. Search scores every hit with it ({@code SearchHit#score()}), so a
 * threshold means the same with every model and on any data: 0.5 is "as likely relevant as not".
 *
 * <p>A <b>fitted</b> calibration comes from labelled pairs (a question against each memory of its
 * own store: the evidence memories are relevant, the others are not, the two classes weighted
 * equally), fitted per embedder by {@code engram bench calibrate} and shipped with the embedder as
 * a properties resource ({@link #load}). An embedder without one gets the {@linkplain
 * #fallback(double) fallback}: the shape fitted for the default model, bge-small, moved onto the
 * embedder's own {@link Embedder#relevanceFloor() floor}.
 *
 * @param slope the logistic's slope on the cosine; positive
 * @param intercept the logistic's intercept
 * @param source where the parameters come from (a fit's data and command, or "fallback")
 */
public record RelevanceCalibration(double slope, double intercept, String source) {
  /**
   * bge-small's fitted map (probability 0.5 at cosine 0.573, floor 0.5), as a share of the span
   * from the floor to 1: the fallback's probability 0.5 lies at {@code floor + FALLBACK_MIDPOINT *
   * (1 - floor)}.
   */
  static final double FALLBACK_MIDPOINT = 0.146;

  /**
   * The fallback's slope over the span from the floor to 1 (bge-small's fitted slope, 8.0, times
   * its span, 0.5).
   */
  static final double FALLBACK_SPAN_SLOPE = 4.0;

  public RelevanceCalibration {
    if (!(slope > 0) || !Double.isFinite(slope)) {
      throw new ValidationException("relevance.slope", "must be a positive number, got " + slope);
    }
    if (!Double.isFinite(intercept)) {
      throw new ValidationException(
          "relevance.intercept", "must be a finite number, got " + intercept);
    }
    if (source == null || source.isBlank()) {
      throw new ValidationException("relevance.source", "must be given");
    }
  }

  /**
   * The probability, in [0, 1], that a memory whose embedding has this cosine similarity with the
   * query's is relevant to it. Monotone non-decreasing in the cosine; NaN maps to 0.
   */
  public double probability(double cosine) {
    if (Double.isNaN(cosine)) {
      return 0.0;
    }
    double z = slope * cosine + intercept;
    return z >= 0 ? 1.0 / (1.0 + Math.exp(-z)) : Math.exp(z) / (1.0 + Math.exp(z));
  }

  /**
   * The cosine at which the probability is {@code p}, in (0, 1): the inverse of {@link
   * #probability}.
   */
  public double cosineAt(double p) {
    if (!(p > 0 && p < 1)) {
      throw new ValidationException("p", "must be in (0, 1), got " + p);
    }
    return (Math.log(p / (1 - p)) - intercept) / slope;
  }

  /**
   * The map for an embedder with no fitted one: the fitted bge-small map's shape over the span from
   * the embedder's relevance floor (the cosine of unrelated texts) to 1, so that its probability
   * 0.5 lies {@value #FALLBACK_MIDPOINT} of the way up from the floor. Right for models whose floor
   * was measured; for a model with floor 0 it is a broad map (0.5 at cosine 0.146, 0.36 at 0).
   */
  public static RelevanceCalibration fallback(double floor) {
    if (!(floor >= 0 && floor < 1)) {
      throw new ValidationException("relevanceFloor", "must be in [0, 1), got " + floor);
    }
    double span = 1 - floor;
    double slope = FALLBACK_SPAN_SLOPE / span;
    double midpoint = floor + FALLBACK_MIDPOINT * span;
    return new RelevanceCalibration(slope, -slope * midpoint, "fallback (floor " + floor + ")");
  }

  /**
   * The calibration in a properties resource beside {@code owner} (keys {@code slope}, {@code
   * intercept} and {@code source}), as {@code engram bench calibrate} writes it.
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
          Double.parseDouble(p.getProperty("intercept", "")),
          p.getProperty("source", resource));
    } catch (NumberFormatException | ValidationException e) {
      throw new IllegalStateException("malformed relevance calibration " + resource, e);
    }
  }
}

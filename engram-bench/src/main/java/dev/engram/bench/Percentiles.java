package dev.engram.bench;

import java.util.Arrays;

/** Nearest-rank percentiles of a sample. */
public final class Percentiles {
  private final double[] sorted;

  public Percentiles(double[] values) {
    this.sorted = values.clone();
    Arrays.sort(sorted);
  }

  /** The p-th percentile (0 < p <= 100) by the nearest-rank method; NaN for an empty sample. */
  public double at(double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  public double mean() {
    return sorted.length == 0 ? Double.NaN : Arrays.stream(sorted).average().orElse(Double.NaN);
  }

  public int size() {
    return sorted.length;
  }
}

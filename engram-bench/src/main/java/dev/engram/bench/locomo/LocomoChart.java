package dev.engram.bench.locomo;

import dev.engram.bench.SvgChart;
import dev.engram.bench.SvgChart.Guide;
import dev.engram.bench.SvgChart.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * The chart of the LoCoMo harness: evidence recall (y) against context tokens per query (x, log
 * scale) for Engram's runs and the baselines, one point each; Engram's runs are named in the legend
 * column (their points crowd together), the baselines beside their points; dashed guides join the
 * RAG baselines of the same k in order of chunk size. A mean of 0 tokens is drawn at 1 (the log
 * scale has no 0).
 */
public final class LocomoChart {
  private static final String[] RUN_COLORS = {
    "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf", "#ff7f0e", "#000000",
    "#b8860b", "#000080"
  };
  private static final String K1 = "#1f77b4";
  private static final String K2 = "#2ca02c";
  private static final String FULL = "#555555";

  private LocomoChart() {}

  /**
   * The chart of several runs (for example one per mode and layout); baselines come from the first
   * that has them.
   */
  public static String svg(List<LocomoReport> reports) {
    List<Series> series = new ArrayList<>();
    for (int i = 0; i < reports.size(); i++) {
      LocomoReport r = reports.get(i);
      series.add(
          new Series(
              r.runLabel(),
              RUN_COLORS[i % RUN_COLORS.length],
              x(r.overall().contextTokensMean()),
              r.overall().evidenceRecall(),
              true));
    }
    List<LocomoReport.Baseline> baselines =
        reports.stream()
            .map(LocomoReport::baselines)
            .filter(b -> !b.isEmpty())
            .findFirst()
            .orElse(List.of());
    List<double[]> k1 = new ArrayList<>();
    List<double[]> k2 = new ArrayList<>();
    for (LocomoReport.Baseline b : baselines) {
      String color = b.name().endsWith("-k1") ? K1 : b.name().endsWith("-k2") ? K2 : FULL;
      series.add(new Series(b.name(), color, x(b.contextTokensMean()), b.evidenceRecall(), false));
      double[] point = {x(b.contextTokensMean()), b.evidenceRecall()};
      if (color.equals(K1)) {
        k1.add(point);
      } else if (color.equals(K2)) {
        k2.add(point);
      }
    }
    List<Guide> guides = new ArrayList<>();
    if (k1.size() > 1) {
      guides.add(new Guide(K1, k1));
    }
    if (k2.size() > 1) {
      guides.add(new Guide(K2, k2));
    }
    String dataset =
        reports.isEmpty()
            ? ""
            : " (" + reports.get(0).dataset() + ", " + reports.get(0).embedder() + ")";
    return SvgChart.render(
        "LoCoMo evidence recall vs context tokens" + dataset,
        "context tokens per query" + " (cl100k, log scale)",
        "evidence recall",
        series,
        guides);
  }

  private static double x(double tokens) {
    return Math.max(1.0, tokens);
  }
}

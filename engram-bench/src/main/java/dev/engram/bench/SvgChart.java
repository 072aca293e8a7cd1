package dev.engram.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A small scatter chart written as SVG 1.1 text: labelled points on a logarithmic x axis and a
 * linear y axis from 0 to 1, with optional unlabelled guide lines joining points. Each labelled
 * point is one {@code <g class="series" data-name="...">} element holding a circle and its label,
 * so that a reader (or a test) finds one element per series. A series is labelled either beside its
 * point (nudged vertically so that labels do not overlap) or, for crowded points, in the legend
 * column on the right with a marker of its colour.
 */
public final class SvgChart {
  private static final int WIDTH = 940;
  private static final int HEIGHT = 500;
  private static final int LEFT = 64;
  private static final int RIGHT = 290;
  private static final int TOP = 44;
  private static final int BOTTOM = 56;
  private static final double CHAR_WIDTH = 6.2;
  private static final int LINE_HEIGHT = 12;

  /**
   * One labelled point; {@code legend} puts its label in the legend column instead of beside the
   * point.
   */
  public record Series(String name, String color, double x, double y, boolean legend) {
    public Series {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(color, "color");
      if (!(x > 0) || Double.isInfinite(x)) {
        throw new IllegalArgumentException(
            "x of '" + name + "' must be positive for a log scale, got " + x);
      }
    }
  }

  /** An unlabelled line through points, in order (each point is {x, y}). */
  public record Guide(String color, List<double[]> points) {
    public Guide {
      Objects.requireNonNull(color, "color");
      points = List.copyOf(points);
    }
  }

  private SvgChart() {}

  /** The chart as a standalone SVG document. */
  public static String render(
      String title, String xLabel, String yLabel, List<Series> series, List<Guide> guides) {
    double minX = Double.MAX_VALUE;
    double maxX = Double.MIN_VALUE;
    for (Series s : series) {
      minX = Math.min(minX, s.x());
      maxX = Math.max(maxX, s.x());
    }
    int lo = series.isEmpty() ? 0 : (int) Math.floor(Math.log10(minX));
    int hi = series.isEmpty() ? 1 : Math.max(lo + 1, (int) Math.ceil(Math.log10(maxX)));
    Axis axis = new Axis(lo, hi);
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\""
                + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    sb.append("<title>").append(escape(title)).append("</title>\n");
    sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    text(sb, WIDTH / 2.0, 22, "middle", "font-size=\"14\" font-weight=\"bold\"", title);
    grid(sb, axis);
    text(sb, LEFT + plotWidth() / 2.0, HEIGHT - 14, "middle", "", xLabel);
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\""
                + " transform=\"rotate(-90 16 %.1f)\">%s</text>%n",
            TOP + plotHeight() / 2.0,
            TOP + plotHeight() / 2.0,
            escape(yLabel)));
    for (Guide g : guides) {
      StringBuilder pts = new StringBuilder();
      for (double[] p : g.points()) {
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", axis.x(p[0]), y(p[1])));
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "<polyline class=\"guide\" points=\"%s\" fill=\"none\" stroke=\"%s\""
                  + " stroke-width=\"1\" stroke-dasharray=\"4 3\"/>%n",
              pts.toString().strip(),
              escape(g.color())));
    }
    List<double[]> placed = new ArrayList<>();
    int legendRow = 0;
    for (Series s : series) {
      double px = axis.x(s.x());
      double py = y(s.y());
      sb.append("<g class=\"series\" data-name=\"").append(escape(s.name())).append("\">");
      sb.append(
          String.format(
              Locale.ROOT,
              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>",
              px,
              py,
              escape(s.color())));
      double lx;
      double ly;
      if (s.legend()) {
        lx = LEFT + plotWidth() + 24;
        ly = TOP + 10 + LINE_HEIGHT * 1.5 * legendRow++;
        sb.append(
            String.format(
                Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\"/>",
                lx - 13,
                ly - 8,
                escape(s.color())));
      } else {
        lx = px + 7;
        ly = labelY(lx, py + 4, s.name(), placed);
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>",
              lx,
              ly,
              escape(s.color()),
              escape(s.name())));
      sb.append("</g>\n");
    }
    sb.append("</svg>\n");
    return sb.toString();
  }

  private static void grid(StringBuilder sb, Axis axis) {
    sb.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#444\"/>%n",
            LEFT,
            TOP,
            plotWidth(),
            plotHeight()));
    for (int i = 0; i <= 5; i++) {
      double v = i / 5.0;
      double py = y(v);
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
              LEFT,
              py,
              LEFT + plotWidth(),
              py));
      text(sb, LEFT - 6, py + 4, "end", "", String.format(Locale.ROOT, "%.1f", v));
    }
    for (int d = axis.lo; d <= axis.hi; d++) {
      double px = axis.x(Math.pow(10, d));
      sb.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
              px,
              TOP,
              px,
              TOP + plotHeight()));
      text(
          sb,
          px,
          TOP + plotHeight() + 16,
          "middle",
          "",
          String.format(Locale.ROOT, "%,d", (long) Math.pow(10, d)));
    }
  }

  /**
   * A label baseline near {@code y} whose box overlaps no label placed so far; records the chosen
   * box.
   */
  private static double labelY(double x, double y, String label, List<double[]> placed) {
    double w = label.length() * CHAR_WIDTH;
    for (int step = 0; step < 40; step++) {
      int sign = step % 2 == 0 ? 1 : -1;
      double candidate = y + sign * ((step + 1) / 2) * LINE_HEIGHT;
      boolean free = true;
      for (double[] b : placed) {
        if (x < b[0] + b[2]
            && b[0] < x + w
            && candidate - LINE_HEIGHT < b[1]
            && b[1] - LINE_HEIGHT < candidate) {
          free = false;
          break;
        }
      }
      if (free) {
        placed.add(new double[] {x, candidate, w});
        return candidate;
      }
    }
    return y;
  }

  private static void text(
      StringBuilder sb, double x, double y, String anchor, String attrs, String s) {
    sb.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>%s</text>%n",
            x,
            y,
            anchor,
            attrs.isEmpty() ? "" : " " + attrs,
            escape(s)));
  }

  private static int plotWidth() {
    return WIDTH - LEFT - RIGHT;
  }

  private static int plotHeight() {
    return HEIGHT - TOP - BOTTOM;
  }

  private static double y(double v) {
    return TOP + plotHeight() * (1 - Math.max(0, Math.min(1, v)));
  }

  /** XML-escapes text for element content and attribute values. */
  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  private record Axis(int lo, int hi) {
    double x(double v) {
      return LEFT + plotWidth() * (Math.log10(v) - lo) / (hi - lo);
    }
  }
}

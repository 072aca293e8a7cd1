package dev.engram.bench.calibration;

import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.locomo.LocomoReader;
import dev.engram.spi.Embedder;
import dev.engram.spi.RelevanceCalibration;
import dev.engram.spi.VectorMath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * Fits an embedder's {@link RelevanceCalibration} on labelled pairs from benchmark files in
 * LoCoMo's format (the LoCoMo and BEAM samples): each scored question (categories 1 to 4, with
 * evidence) against every turn of its own conversation, stored as the raw mode stores it (the
 * turn's text); a turn the question names as evidence is relevant, every other turn is not. The two
 * classes weigh the same in total, and within a class each file weighs the same (so a sample with
 * more questions does not decide the fit alone): probability 0.5 then means "as likely relevant as
 * not" on either benchmark. The map is a logistic regression on the cosine (Newton's method,
 * weighted log-loss), so it is monotone by construction.
 *
 * <p>It also reports what the fitted map does to the pairs ({@link Fit#diagnostics}): the area
 * under the ROC curve, the evidence's share at or above each threshold of a grid, and the share of
 * off-topic questions (each conversation's questions against the next conversation's turns) whose
 * best turn stays under it. These read the map alone, without the search's ranking and support;
 * {@code engram bench locomo --off-topic} measures the search.
 */
public final class RelevanceFit {
  /** Thresholds at which the diagnostics are reported. */
  static final double[] GRID = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};

  private static final int NEWTON_STEPS = 100;

  /** A tiny ridge on the Hessian, so that separable data still gives finite parameters. */
  private static final double RIDGE = 1e-6;

  private RelevanceFit() {}

  /** One labelled pair: a cosine, whether the memory is evidence, and the pair's weight. */
  record Pair(double cosine, boolean relevant, double weight) {}

  /**
   * A fit's result.
   *
   * @param map the fitted calibration
   * @param positives evidence pairs
   * @param negatives other pairs
   * @param diagnostics named figures of the fit (see the class comment), in a stable order
   */
  public record Fit(
      RelevanceCalibration map, int positives, int negatives, Map<String, Double> diagnostics) {}

  /**
   * Fits {@code embedder}'s map on the files, in order. {@code progress} receives the number of
   * texts embedded after each call.
   */
  public static Fit fit(List<Path> files, Embedder embedder, IntConsumer progress) {
    Objects.requireNonNull(embedder, "embedder");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no data files");
    }
    List<List<Pair>> perFile = new ArrayList<>();
    List<double[]> offTopicBest = new ArrayList<>();
    List<double[]> onTopicBest = new ArrayList<>();
    for (Path file : files) {
      List<Conversation> conversations = LocomoReader.read(file);
      List<Embedded> embedded = new ArrayList<>();
      for (Conversation c : conversations) {
        embedded.add(Embedded.of(c, embedder, progress));
      }
      List<Pair> pairs = new ArrayList<>();
      List<Double> off = new ArrayList<>();
      List<Double> on = new ArrayList<>();
      for (int i = 0; i < embedded.size(); i++) {
        Embedded own = embedded.get(i);
        Embedded other = embedded.get((i + 1) % embedded.size());
        for (int q = 0; q < own.questions.size(); q++) {
          Question question = own.questions.get(q);
          float[] v = own.queryVectors.get(q);
          Set<String> evidence = new HashSet<>(question.evidence());
          double best = -1;
          for (int t = 0; t < own.turnIds.size(); t++) {
            double cos = VectorMath.cosine(v, own.turnVectors.get(t));
            pairs.add(new Pair(cos, evidence.contains(own.turnIds.get(t)), 1));
            best = Math.max(best, cos);
          }
          on.add(best);
          if (embedded.size() > 1) {
            double bestOff = -1;
            for (float[] turn : other.turnVectors) {
              bestOff = Math.max(bestOff, VectorMath.cosine(v, turn));
            }
            off.add(bestOff);
          }
        }
      }
      perFile.add(pairs);
      offTopicBest.add(off.stream().mapToDouble(Double::doubleValue).toArray());
      onTopicBest.add(on.stream().mapToDouble(Double::doubleValue).toArray());
    }
    List<Pair> weighted = new ArrayList<>();
    int positives = 0;
    int negatives = 0;
    for (List<Pair> pairs : perFile) {
      long pos = pairs.stream().filter(Pair::relevant).count();
      long neg = pairs.size() - pos;
      positives += (int) pos;
      negatives += (int) neg;
      for (Pair p : pairs) {
        double w = 1.0 / perFile.size() / (p.relevant() ? Math.max(1, pos) : Math.max(1, neg));
        weighted.add(new Pair(p.cosine(), p.relevant(), w));
      }
    }
    String source =
        "fitted by engram bench calibrate on "
            + files.stream().map(f -> f.getFileName().toString()).toList()
            + " ("
            + positives
            + " evidence pairs, "
            + negatives
            + " others)";
    RelevanceCalibration map = logistic(weighted, source);
    Map<String, Double> diagnostics = new LinkedHashMap<>();
    diagnostics.put("cosine_at_0.5", map.cosineAt(0.5));
    for (int f = 0; f < files.size(); f++) {
      String name = files.get(f).getFileName().toString();
      diagnostics.put(name + ".auc", auc(perFile.get(f)));
      for (double t : GRID) {
        double cos = map.cosineAt(t);
        diagnostics.put(
            String.format(Locale.ROOT, "%s.evidence_at_or_above@%.1f", name, t),
            share(perFile.get(f).stream().filter(Pair::relevant).mapToDouble(Pair::cosine), cos));
        diagnostics.put(
            String.format(Locale.ROOT, "%s.question_best_at_or_above@%.1f", name, t),
            share(java.util.Arrays.stream(onTopicBest.get(f)), cos));
        if (offTopicBest.get(f).length > 0) {
          diagnostics.put(
              String.format(Locale.ROOT, "%s.offtopic_best_under@%.1f", name, t),
              1 - share(java.util.Arrays.stream(offTopicBest.get(f)), cos));
        }
      }
    }
    return new Fit(map, positives, negatives, diagnostics);
  }

  /** The share of the values at or above {@code cut} (0 for none). */
  private static double share(java.util.stream.DoubleStream values, double cut) {
    double[] v = values.toArray();
    if (v.length == 0) {
      return 0;
    }
    return (double) java.util.Arrays.stream(v).filter(x -> x >= cut).count() / v.length;
  }

  /**
   * The weighted logistic regression of relevance on the cosine, by Newton's method.
   *
   * @throws IllegalStateException if the fitted slope is not positive (the cosine does not separate
   *     the classes at all: no monotone map can be fitted)
   */
  static RelevanceCalibration logistic(List<Pair> pairs, String source) {
    double a = 1;
    double b = 0;
    for (int step = 0; step < NEWTON_STEPS; step++) {
      double ga = 0;
      double gb = 0;
      double haa = RIDGE;
      double hab = 0;
      double hbb = RIDGE;
      for (Pair p : pairs) {
        double z = a * p.cosine() + b;
        double prob = 1 / (1 + Math.exp(-z));
        double r = p.weight() * (prob - (p.relevant() ? 1 : 0));
        double s = p.weight() * prob * (1 - prob);
        ga += r * p.cosine();
        gb += r;
        haa += s * p.cosine() * p.cosine();
        hab += s * p.cosine();
        hbb += s;
      }
      double det = haa * hbb - hab * hab;
      double da = (hbb * ga - hab * gb) / det;
      double db = (haa * gb - hab * ga) / det;
      a -= da;
      b -= db;
      if (Math.abs(da) < 1e-10 && Math.abs(db) < 1e-10) {
        break;
      }
    }
    if (!(a > 0)) {
      throw new IllegalStateException("the cosine does not separate evidence from the rest: " + a);
    }
    return new RelevanceCalibration(a, b, source);
  }

  /**
   * The area under the ROC curve of the cosine on the pairs (unweighted): the chance that an
   * evidence pair has a higher cosine than another pair.
   */
  static double auc(List<Pair> pairs) {
    List<Pair> sorted = new ArrayList<>(pairs);
    sorted.sort(java.util.Comparator.comparingDouble(Pair::cosine));
    long pos = sorted.stream().filter(Pair::relevant).count();
    long neg = sorted.size() - pos;
    if (pos == 0 || neg == 0) {
      return Double.NaN;
    }
    double rankSum = 0;
    for (int i = 0; i < sorted.size(); i++) {
      if (sorted.get(i).relevant()) {
        rankSum += i + 1;
      }
    }
    return (rankSum - pos * (pos + 1) / 2.0) / (pos * (double) neg);
  }

  /**
   * Writes the fit as the properties resource {@link RelevanceCalibration#load} reads, with the
   * command that made it and its diagnostics as comments.
   */
  public static void write(Path out, Fit fit, String command) {
    StringBuilder s = new StringBuilder();
    s.append("# Relevance calibration: p = 1 / (1 + exp(-(slope * cosine + intercept)))\n");
    s.append("# Made by: ").append(command).append('\n');
    for (Map.Entry<String, Double> e : fit.diagnostics().entrySet()) {
      s.append(String.format(Locale.ROOT, "# %s = %.4f%n", e.getKey(), e.getValue()));
    }
    s.append(String.format(Locale.ROOT, "slope=%.6f%n", fit.map().slope()));
    s.append(String.format(Locale.ROOT, "intercept=%.6f%n", fit.map().intercept()));
    s.append("source=").append(fit.map().source()).append('\n');
    try {
      Files.writeString(out, s.toString(), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out, e);
    }
  }

  /** A conversation's turns and scored questions, embedded. */
  private record Embedded(
      List<String> turnIds,
      List<float[]> turnVectors,
      List<Question> questions,
      List<float[]> queryVectors) {
    static Embedded of(Conversation c, Embedder embedder, IntConsumer progress) {
      List<String> ids = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      for (Session s : c.sessions()) {
        for (Turn t : s.turns()) {
          ids.add(t.diaId());
          texts.add(t.text().isBlank() ? "(shared an image)" : t.text());
        }
      }
      List<float[]> vectors = new ArrayList<>();
      for (int from = 0; from < texts.size(); from += 64) {
        List<String> batch = texts.subList(from, Math.min(texts.size(), from + 64));
        vectors.addAll(embedder.embedDocuments(batch));
        progress.accept(batch.size());
      }
      List<Question> questions =
          c.questions().stream()
              .filter(q -> q.category() >= 1 && q.category() <= 4 && !q.evidence().isEmpty())
              .toList();
      List<float[]> queries = new ArrayList<>();
      for (Question q : questions) {
        queries.add(embedder.embedQuery(q.question()));
      }
      progress.accept(questions.size());
      return new Embedded(ids, vectors, questions, queries);
    }
  }
}

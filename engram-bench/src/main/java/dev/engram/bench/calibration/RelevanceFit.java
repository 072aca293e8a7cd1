package dev.engram.bench.calibration;

import dev.engram.analysis.QueryAnalyzer;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.locomo.LocomoReader;
import dev.engram.bench.locomo.StoredMemories;
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
 * evidence) against the memories of its own conversation, of two kinds: every turn as the raw mode
 * stores it (the turn's text), and the facts the offline extractor keeps of the conversation
 * ({@link StoredMemories#extracted}; every fact drawn from an evidence turn of some question, and
 * an even sample of the others, at most {@link #FACTS_PER_CONVERSATION} in all). A memory drawn
 * from a turn the question names as evidence is relevant, every other is not. Each pair has two
 * signals: the cosine of the question's and the memory's embeddings and the share of the question's
 * content words the memory holds ({@link QueryAnalyzer#contentWords}, {@link QueryAnalyzer#share}),
 * as the search computes them. The two classes weigh the same in total, and within a class each
 * file and kind weighs the same (so neither a sample with more questions nor the facts, which
 * outnumber the turns, decide the fit alone): probability 0.5 then means "as likely relevant as
 * not" on either benchmark. The map is a logistic regression on the two signals (Newton's method,
 * weighted log-loss); a keyword weight that comes out negative is set to 0 and the cosine refitted
 * alone, so the map is monotone in both by construction.
 *
 * <p>It also reports what the fitted map does to the pairs ({@link Fit#diagnostics}): per file and
 * kind, the area under the ROC curve of the cosine alone and of the map, and the evidence's share
 * at or above each threshold of a grid. These read the map alone, without the search's ranking and
 * support; {@code engram bench locomo --off-topic} measures the search.
 */
public final class RelevanceFit {
  /** Thresholds at which the diagnostics are reported. */
  static final double[] GRID = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};

  /** The most extracted facts a conversation gives the fit (its evidence facts always). */
  static final int FACTS_PER_CONVERSATION = 2000;

  private static final int NEWTON_STEPS = 100;

  /** A tiny ridge on the Hessian, so that separable data still gives finite parameters. */
  private static final double RIDGE = 1e-6;

  private RelevanceFit() {}

  /**
   * One labelled pair: the cosine, the keyword share, whether the memory is evidence, and the
   * pair's weight.
   */
  record Pair(double cosine, double share, boolean relevant, double weight) {}

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
   * Fits {@code embedder}'s map on the files, in order; the extractor's stores are made under
   * {@code workDir}. {@code progress} receives the number of texts embedded after each call.
   */
  public static Fit fit(List<Path> files, Embedder embedder, Path workDir, IntConsumer progress) {
    Objects.requireNonNull(embedder, "embedder");
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no data files");
    }
    QueryAnalyzer analyzer = QueryAnalyzer.english();
    Map<String, List<Pair>> groups = new LinkedHashMap<>();
    for (Path file : files) {
      String name = file.getFileName().toString();
      List<Pair> raw = new ArrayList<>();
      List<Pair> facts = new ArrayList<>();
      for (Conversation c : LocomoReader.read(file)) {
        List<Question> questions =
            c.questions().stream()
                .filter(q -> q.category() >= 1 && q.category() <= 4 && !q.evidence().isEmpty())
                .toList();
        List<float[]> queries = new ArrayList<>();
        for (Question q : questions) {
          queries.add(embedder.embedQuery(q.question()));
        }
        progress.accept(questions.size());
        List<StoredMemories.Kept> turns = new ArrayList<>();
        for (Session s : c.sessions()) {
          for (Turn t : s.turns()) {
            turns.add(
                new StoredMemories.Kept(
                    t.text().isBlank() ? "(shared an image)" : t.text(), List.of(t.diaId())));
          }
        }
        pairs(questions, queries, turns, embedder, analyzer, progress, raw);
        List<StoredMemories.Kept> extracted =
            sample(StoredMemories.extracted(c, workDir), questions);
        pairs(questions, queries, extracted, embedder, analyzer, progress, facts);
      }
      groups.put(name + ".turns", raw);
      groups.put(name + ".facts", facts);
    }
    List<Pair> weighted = new ArrayList<>();
    int positives = 0;
    int negatives = 0;
    for (List<Pair> pairs : groups.values()) {
      long pos = pairs.stream().filter(Pair::relevant).count();
      long neg = pairs.size() - pos;
      positives += (int) pos;
      negatives += (int) neg;
      for (Pair p : pairs) {
        double w = 1.0 / groups.size() / (p.relevant() ? Math.max(1, pos) : Math.max(1, neg));
        weighted.add(new Pair(p.cosine(), p.share(), p.relevant(), w));
      }
    }
    String source =
        "fitted by engram bench calibrate on "
            + files.stream().map(f -> f.getFileName().toString()).toList()
            + ", raw turns and extracted facts ("
            + positives
            + " evidence pairs, "
            + negatives
            + " others)";
    RelevanceCalibration map = logistic(weighted, source);
    Map<String, Double> diagnostics = new LinkedHashMap<>();
    diagnostics.put("cosine_at_0.5_no_words", map.cosineAt(0.5, 0));
    diagnostics.put("cosine_at_0.5_all_words", map.cosineAt(0.5, 1));
    for (Map.Entry<String, List<Pair>> g : groups.entrySet()) {
      String name = g.getKey();
      List<Pair> pairs = g.getValue();
      diagnostics.put(name + ".auc_cosine", auc(pairs, Pair::cosine));
      diagnostics.put(name + ".auc_map", auc(pairs, p -> map.probability(p.cosine(), p.share())));
      for (double t : GRID) {
        diagnostics.put(
            String.format(Locale.ROOT, "%s.evidence_at_or_above@%.1f", name, t),
            share(
                pairs.stream()
                    .filter(Pair::relevant)
                    .mapToDouble(p -> map.probability(p.cosine(), p.share())),
                t));
        diagnostics.put(
            String.format(Locale.ROOT, "%s.others_at_or_above@%.1f", name, t),
            share(
                pairs.stream()
                    .filter(p -> !p.relevant())
                    .mapToDouble(p -> map.probability(p.cosine(), p.share())),
                t));
      }
    }
    return new Fit(map, positives, negatives, diagnostics);
  }

  /**
   * The facts drawn from an evidence turn of some question, and an even sample of the others, at
   * most {@link #FACTS_PER_CONVERSATION} in all.
   */
  static List<StoredMemories.Kept> sample(
      List<StoredMemories.Kept> facts, List<Question> questions) {
    Set<String> evidence = new HashSet<>();
    questions.forEach(q -> evidence.addAll(q.evidence()));
    List<StoredMemories.Kept> out = new ArrayList<>();
    List<StoredMemories.Kept> others = new ArrayList<>();
    for (StoredMemories.Kept k : facts) {
      if (k.sourceIds().stream().anyMatch(evidence::contains)) {
        out.add(k);
      } else {
        others.add(k);
      }
    }
    int room = Math.max(0, FACTS_PER_CONVERSATION - out.size());
    double step = others.size() <= room ? 1 : (double) others.size() / room;
    for (double i = 0; i < others.size() && room > 0; i += step) {
      out.add(others.get((int) i));
    }
    return out;
  }

  /** Embeds the memories and adds the pair of each question with each memory. */
  private static void pairs(
      List<Question> questions,
      List<float[]> queries,
      List<StoredMemories.Kept> memories,
      Embedder embedder,
      QueryAnalyzer analyzer,
      IntConsumer progress,
      List<Pair> out) {
    List<float[]> vectors = new ArrayList<>();
    for (int from = 0; from < memories.size(); from += 64) {
      List<String> batch =
          memories.subList(from, Math.min(memories.size(), from + 64)).stream()
              .map(StoredMemories.Kept::text)
              .toList();
      vectors.addAll(embedder.embedDocuments(batch));
      progress.accept(batch.size());
    }
    for (int q = 0; q < questions.size(); q++) {
      Set<String> evidence = new HashSet<>(questions.get(q).evidence());
      List<String> words = analyzer.contentWords(questions.get(q).question());
      float[] v = queries.get(q);
      for (int m = 0; m < memories.size(); m++) {
        StoredMemories.Kept k = memories.get(m);
        out.add(
            new Pair(
                VectorMath.cosine(v, vectors.get(m)),
                QueryAnalyzer.share(words, k.text()),
                k.sourceIds().stream().anyMatch(evidence::contains),
                1));
      }
    }
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
   * The weighted logistic regression of relevance on the cosine and the keyword share, by Newton's
   * method; if the keyword share's weight comes out negative, the regression on the cosine alone.
   *
   * @throws IllegalStateException if the fitted cosine slope is not positive (the cosine does not
   *     separate the classes at all: no monotone map can be fitted)
   */
  static RelevanceCalibration logistic(List<Pair> pairs, String source) {
    double[] w = newton(pairs, true);
    if (w[1] < 0) {
      w = newton(pairs, false);
    }
    if (!(w[0] > 0)) {
      throw new IllegalStateException(
          "the cosine does not separate evidence from the rest: " + w[0]);
    }
    return new RelevanceCalibration(w[0], w[1], w[2], source);
  }

  /**
   * Newton's method on (cosine slope, keyword slope, intercept); the keyword's fixed at 0 unless
   * {@code keyword}.
   */
  private static double[] newton(List<Pair> pairs, boolean keyword) {
    double[] w = {1, 0, 0};
    int n = keyword ? 3 : 2;
    for (int step = 0; step < NEWTON_STEPS; step++) {
      double[] g = new double[3];
      double[][] h = new double[3][3];
      for (int i = 0; i < 3; i++) {
        h[i][i] = RIDGE;
      }
      for (Pair p : pairs) {
        double[] x = {p.cosine(), p.share(), 1};
        double z = w[0] * x[0] + w[1] * x[1] + w[2];
        double prob = 1 / (1 + Math.exp(-z));
        double r = p.weight() * (prob - (p.relevant() ? 1 : 0));
        double s = p.weight() * prob * (1 - prob);
        for (int i = 0; i < 3; i++) {
          g[i] += r * x[i];
          for (int j = 0; j < 3; j++) {
            h[i][j] += s * x[i] * x[j];
          }
        }
      }
      int[] idx = keyword ? new int[] {0, 1, 2} : new int[] {0, 2};
      double[][] a = new double[n][n + 1];
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          a[i][j] = h[idx[i]][idx[j]];
        }
        a[i][n] = g[idx[i]];
      }
      double[] d = solve(a);
      double moved = 0;
      for (int i = 0; i < n; i++) {
        w[idx[i]] -= d[i];
        moved = Math.max(moved, Math.abs(d[i]));
      }
      if (moved < 1e-10) {
        break;
      }
    }
    return w;
  }

  /** Solves the augmented system {@code a} (n rows, n + 1 columns) by Gaussian elimination. */
  private static double[] solve(double[][] a) {
    int n = a.length;
    for (int c = 0; c < n; c++) {
      int pivot = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
          pivot = r;
        }
      }
      double[] t = a[c];
      a[c] = a[pivot];
      a[pivot] = t;
      for (int r = c + 1; r < n; r++) {
        double f = a[r][c] / a[c][c];
        for (int k = c; k <= n; k++) {
          a[r][k] -= f * a[c][k];
        }
      }
    }
    double[] x = new double[n];
    for (int r = n - 1; r >= 0; r--) {
      double sum = a[r][n];
      for (int k = r + 1; k < n; k++) {
        sum -= a[r][k] * x[k];
      }
      x[r] = sum / a[r][r];
    }
    return x;
  }

  /**
   * The area under the ROC curve of a score of the pairs (unweighted): the chance that an evidence
   * pair scores higher than another pair.
   */
  static double auc(List<Pair> pairs, java.util.function.ToDoubleFunction<Pair> score) {
    List<Pair> sorted = new ArrayList<>(pairs);
    sorted.sort(java.util.Comparator.comparingDouble(score));
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
    s.append(
        "# Relevance calibration: p = 1 / (1 + exp(-(slope * cosine + keyword_slope * share +"
            + " intercept)))\n");
    s.append("# share: of the query's content words the memory holds\n");
    s.append("# Made by: ").append(command).append('\n');
    for (Map.Entry<String, Double> e : fit.diagnostics().entrySet()) {
      s.append(String.format(Locale.ROOT, "# %s = %.4f%n", e.getKey(), e.getValue()));
    }
    s.append(String.format(Locale.ROOT, "slope=%.6f%n", fit.map().slope()));
    s.append(String.format(Locale.ROOT, "keyword_slope=%.6f%n", fit.map().keywordSlope()));
    s.append(String.format(Locale.ROOT, "intercept=%.6f%n", fit.map().intercept()));
    s.append("source=").append(fit.map().source()).append('\n');
    try {
      Files.writeString(out, s.toString(), StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out, e);
    }
  }
}

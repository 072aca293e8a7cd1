package dev.engram.bench;

import dev.engram.TokenCounter;
import dev.engram.TokenEstimator;
import dev.engram.bench.locomo.Locomo;
import dev.engram.bench.locomo.LocomoReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How far {@link TokenEstimator} is from OpenAI's cl100k_base tokenizer ({@link TokenCounter}) on
 * texts such as memories: the relative error of the total and the distribution of the per-text
 * relative error ({@code estimate / cl100k - 1}). {@code java -cp engram.jar
 * dev.engram.bench.TokenEstimateError [FILE]} prints it for the multilingual sample's groups and a
 * LoCoMo file's turns and observations.
 *
 * @param texts how many texts
 * @param cl100kTotal their cl100k tokens
 * @param estimateTotal their estimated tokens
 * @param perTextErrors sorted per-text relative errors
 */
// A report read for its figures, never compared by equals; the errors stay a primitive array for
// the percentiles.
@SuppressWarnings("ArrayRecordComponent")
public record TokenEstimateError(
    int texts, long cl100kTotal, long estimateTotal, double[] perTextErrors) {

  /** Measures the texts (blank ones are left out). */
  public static TokenEstimateError of(List<String> texts) {
    List<Double> errors = new ArrayList<>();
    long real = 0;
    long estimate = 0;
    for (String t : texts) {
      if (t.isBlank()) {
        continue;
      }
      int r = TokenCounter.cl100k().count(t);
      int e = TokenEstimator.estimate(t);
      real += r;
      estimate += e;
      errors.add((double) e / r - 1);
    }
    double[] sorted = errors.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return new TokenEstimateError(errors.size(), real, estimate, sorted);
  }

  /** The relative error of the total: {@code estimateTotal / cl100kTotal - 1}. */
  public double totalError() {
    return cl100kTotal == 0 ? 0 : (double) estimateTotal / cl100kTotal - 1;
  }

  /** The per-text relative error at percentile {@code p} (0-100). */
  public double percentile(double p) {
    return new Percentiles(perTextErrors).at(p);
  }

  /** The share of texts whose estimate is below their cl100k count. */
  public double underestimated() {
    return perTextErrors.length == 0
        ? 0
        : Arrays.stream(perTextErrors).filter(x -> x < 0).count() / (double) perTextErrors.length;
  }

  /** One line: texts, totals, total error, p5/p50/p95 per-text error, share underestimated. */
  public String summary(String what) {
    return String.format(
        Locale.ROOT,
        "%s: %d texts, cl100k %d, estimate %d, total %+.1f%%, per text p5 %+.1f%%"
            + " p50 %+.1f%% p95 %+.1f%%, underestimated %.1f%%",
        what,
        texts,
        cl100kTotal,
        estimateTotal,
        100 * totalError(),
        100 * percentile(5),
        100 * percentile(50),
        100 * percentile(95),
        100 * underestimated());
  }

  /**
   * The multilingual sample shipped with the benchmarks ({@code multilingual-memories.txt}:
   * memory-like facts in nine groups of scripts, written for this measurement), by group name in
   * file order.
   */
  public static Map<String, List<String>> multilingualSample() {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    try (InputStream in =
        TokenEstimateError.class.getResourceAsStream("multilingual-memories.txt")) {
      if (in == null) {
        throw new IllegalStateException(
            "multilingual-memories.txt is missing beside " + TokenEstimateError.class);
      }
      List<String> group = null;
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
        if (line.startsWith("@ ")) {
          group = groups.computeIfAbsent(line.substring(2).trim(), k -> new ArrayList<>());
        } else if (!line.isBlank() && !line.startsWith("#") && group != null) {
          group.add(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return groups;
  }

  /**
   * Prints the error on a LoCoMo file's turns and observations (when given one) and on the
   * multilingual sample.
   */
  public static void main(String[] args) {
    multilingualSample().forEach((group, texts) -> System.out.println(of(texts).summary(group)));
    if (args.length == 0) {
      return;
    }
    List<Locomo.Conversation> all = LocomoReader.read(Path.of(args[0]));
    List<String> turns = new ArrayList<>();
    List<String> observations = new ArrayList<>();
    for (Locomo.Conversation c : all) {
      c.sessions().forEach(s -> s.turns().forEach(t -> turns.add(t.text())));
      c.observations().forEach(o -> observations.add(o.text()));
    }
    System.out.println(of(turns).summary("turns"));
    System.out.println(of(observations).summary("observations"));
  }
}

package dev.engram.bench.locomo;

import dev.engram.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Question;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The per-turn baselines, independent of Engram's search code: every turn of a conversation is one
 * document, rendered as {@code <speaker>: <text>} ({@link RagBaseline#line}), ranked for a question
 * either by plain cosine over the same embedder's vectors ({@value #DENSE}: the query embedded with
 * {@link Embedder#embedQuery}, turns with {@link Embedder#embedDocuments}, brute force) or by BM25
 * ({@value #BM25}: k1 1.2, b 0.75, Lucene's idf, over the question's terms as Lucene's {@code
 * EnglishAnalyzer} reads them, with no question words removed). Each ranking is read like Engram's
 * search at the same settings: the first {@value #TOP_K} turns, or the turns taken in rank order
 * while they fit into a budget of 500 or 1,500 cl100k tokens (a turn that would overflow it is
 * skipped, so a shorter one further down can still fit; at most {@value #MAX_TURNS} turns). Ties go
 * to the earlier turn.
 *
 * <p>These are what a memory's ranking steps must beat: the same turns, the same embedder, the
 * simplest retrieval. One embedding pass over the conversation's turns, which keeps them cheap.
 */
final class TurnBaselines {
  /** The dense baseline's name prefix. */
  static final String DENSE = "dense-turns";

  /** The keyword baseline's name prefix. */
  static final String BM25 = "bm25-turns";

  /** The top-k setting. */
  static final int TOP_K = 10;

  /** The budgets, in cl100k tokens. */
  static final List<Integer> BUDGETS = List.of(500, 1500);

  /** At most this many turns within a budget, as a search's top-k limit. */
  static final int MAX_TURNS = 1000;

  private static final int EMBED_BATCH = 16;
  private static final double K1 = 1.2;
  private static final double B = 0.75;
  private static final Analyzer ANALYZER = new EnglishAnalyzer();

  private final List<Turn> turns = new ArrayList<>();
  private final List<String> lines = new ArrayList<>();
  private final int[] tokens;
  private final List<float[]> vectors;
  private final List<Map<String, Integer>> termCounts = new ArrayList<>();
  private final int[] lengths;
  private final Map<String, Integer> documentFrequency = new HashMap<>();
  private final double averageLength;

  private TurnBaselines(Conversation c, Embedder embedder) {
    for (Session s : c.sessions()) {
      for (Turn t : s.turns()) {
        turns.add(t);
        lines.add(RagBaseline.line(t));
      }
    }
    tokens = new int[lines.size()];
    lengths = new int[lines.size()];
    long total = 0;
    for (int i = 0; i < lines.size(); i++) {
      tokens[i] = TokenCounter.cl100k().count(lines.get(i));
      List<String> terms = terms(lines.get(i));
      lengths[i] = terms.size();
      total += terms.size();
      Map<String, Integer> counts = new HashMap<>();
      terms.forEach(term -> counts.merge(term, 1, Integer::sum));
      counts.keySet().forEach(term -> documentFrequency.merge(term, 1, Integer::sum));
      termCounts.add(counts);
    }
    averageLength = lines.isEmpty() ? 0 : (double) total / lines.size();
    vectors = new ArrayList<>(lines.size());
    for (int from = 0; from < lines.size(); from += EMBED_BATCH) {
      vectors.addAll(
          embedder.embedDocuments(lines.subList(from, Math.min(lines.size(), from + EMBED_BATCH))));
    }
  }

  /** Indexes a conversation's turns for both baselines: one embedding pass. */
  static TurnBaselines index(Conversation c, Embedder embedder) {
    return new TurnBaselines(c, embedder);
  }

  /** The names of every baseline measured, in report order. */
  static List<String> names() {
    List<String> out = new ArrayList<>();
    for (String prefix : List.of(DENSE, BM25)) {
      out.add(prefix + "-k" + TOP_K);
      BUDGETS.forEach(b -> out.add(prefix + "-" + b + "t"));
    }
    return out;
  }

  /**
   * Measures both baselines at every setting for the scored questions of {@code c} into {@code
   * report}.
   */
  static void measure(
      Conversation c, Embedder embedder, LocomoBench.Hooks hooks, ReportBuilder report) {
    TurnBaselines index = index(c, embedder);
    hooks.progress().accept(c.turnCount());
    for (Question q : c.questions().stream().filter(LocomoBench::scored).toList()) {
      float[] query = embedder.embedQuery(q.question());
      List<List<Integer>> rankings = List.of(index.dense(query), index.bm25(q.question()));
      List<String> prefixes = List.of(DENSE, BM25);
      for (int r = 0; r < rankings.size(); r++) {
        List<Integer> order = rankings.get(r);
        record(c, q, prefixes.get(r) + "-k" + TOP_K, index.top(order, TOP_K), hooks, report);
        for (int budget : BUDGETS) {
          record(
              c,
              q,
              prefixes.get(r) + "-" + budget + "t",
              index.within(order, budget),
              hooks,
              report);
        }
      }
    }
  }

  private static void record(
      Conversation c,
      Question q,
      String name,
      List<Turn> chosen,
      LocomoBench.Hooks hooks,
      ReportBuilder report) {
    List<String> texts = chosen.stream().map(RagBaseline::line).toList();
    Set<String> sources = new LinkedHashSet<>();
    chosen.forEach(t -> sources.add(t.diaId()));
    report.baseline(
        name,
        q,
        LocomoReport.QuestionScore.of(q, texts, sources),
        hooks.observer().onBaseline(name, c, q, texts));
  }

  /** Every turn's index, by the cosine of its vector to {@code query}, best first. */
  List<Integer> dense(float[] query) {
    double[] scores = new double[vectors.size()];
    for (int i = 0; i < scores.length; i++) {
      scores[i] = dot(query, vectors.get(i));
    }
    return order(scores);
  }

  /** Every turn's index, by the BM25 score of {@code question}'s terms, best first. */
  List<Integer> bm25(String question) {
    double[] scores = new double[lines.size()];
    Set<String> queryTerms = new LinkedHashSet<>(terms(question));
    int n = lines.size();
    for (String term : queryTerms) {
      int df = documentFrequency.getOrDefault(term, 0);
      if (df == 0) {
        continue;
      }
      double idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (int i = 0; i < n; i++) {
        Integer tf = termCounts.get(i).get(term);
        if (tf != null) {
          double norm = K1 * (1 - B + B * lengths[i] / averageLength);
          scores[i] += idf * tf * (K1 + 1) / (tf + norm);
        }
      }
    }
    return order(scores);
  }

  /** The first {@code k} turns of an order. */
  List<Turn> top(List<Integer> order, int k) {
    return order.subList(0, Math.min(k, order.size())).stream().map(turns::get).toList();
  }

  /** The turns of an order that fit into {@code budget} tokens together (see the class comment). */
  List<Turn> within(List<Integer> order, int budget) {
    List<Turn> out = new ArrayList<>();
    int used = 0;
    for (int i : order) {
      if (out.size() == MAX_TURNS) {
        break;
      }
      if (used + tokens[i] <= budget) {
        used += tokens[i];
        out.add(turns.get(i));
      }
    }
    return out;
  }

  private static List<Integer> order(double[] scores) {
    List<Integer> order = new ArrayList<>(scores.length);
    for (int i = 0; i < scores.length; i++) {
      order.add(i);
    }
    order.sort(
        (a, b) ->
            scores[a] != scores[b] ? Double.compare(scores[b], scores[a]) : Integer.compare(a, b));
    return order;
  }

  /** The terms of a text as Lucene's {@code EnglishAnalyzer} reads them, in order. */
  static List<String> terms(String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream stream = ANALYZER.tokenStream("text", text)) {
      CharTermAttribute term = stream.addAttribute(CharTermAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        out.add(term.toString());
      }
      stream.end();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot analyse a turn's text", e);
    }
    return out;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }
}

package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one fusion of two ranked candidate lists, used for memories (dense and BM25) and for graph
 * relations (entity-centred and fact similarity). {@link Fusion#RRF}: each list adds {@code 1 / (60
 * + rank)}, divided by the best possible sum so the fused score lies in [0,1]. {@link
 * Fusion#WEIGHTED}: {@code 0.7 * first + 0.3 * second / max(second)}, with the first list's scores
 * taken as similarities in [0,1]. {@link Fusion#COSINE} ({@link #fuseByCosine}, memories only):
 * {@code 0.85 * cosine + 0.15 * second / max(second)} with each candidate's true cosine, those of
 * the candidates only the keyword list found read from their records. The fused score orders
 * candidates; it depends on the other candidates and is not a relevance (see {@link Relevance}).
 * The ranking steps after fusion ({@link RankingStep#fused}) add further lists to a fused ranking
 * with {@link #add} (reciprocal ranks again) and lift a candidate behind another with {@link
 * #lift}.
 */
final class RankFusion {
  /** The RRF constant of Cormack et al. */
  static final int RRF_K = 60;

  static final double FIRST_WEIGHT = 0.7;

  /**
   * The cosine's weight under {@link Fusion#COSINE}; the keyword score divided by the best one gets
   * the rest.
   */
  static final double COSINE_WEIGHT = 0.85;

  /**
   * The embedding's cosine to the query of candidates the dense list did not return, by id, read in
   * one call; a candidate missing from the answer (deleted since the index read it) scores 0.
   */
  @FunctionalInterface
  interface Cosines {
    Map<String, Double> of(List<String> ids);
  }

  private RankFusion() {}

  /** One candidate's scores across the two lists. */
  static final class Fused {
    final String id;
    double first;
    int firstRank;
    double second;
    int secondRank;
    double score;

    Fused(String id) {
      this.id = id;
    }

    Fused copy() {
      Fused c = new Fused(id);
      c.first = first;
      c.firstRank = firstRank;
      c.second = second;
      c.secondRank = secondRank;
      c.score = score;
      return c;
    }
  }

  /**
   * Fuses the two ranked lists; the result is sorted by fused score, best first. Ties (under RRF,
   * ranks 1 and 2 against 2 and 1) go to the candidate with the higher first-list score, the one
   * nearer the query, then by id.
   */
  static List<Fused> fuse(Fusion fusion, List<Candidate> first, List<Candidate> second) {
    if (fusion == Fusion.COSINE) {
      throw new IllegalArgumentException(
          "the cosine fusion needs the cosines of the keyword-only candidates: use fuseByCosine");
    }
    return fuse(fusion, first, second, FIRST_WEIGHT);
  }

  /**
   * {@link Fusion#COSINE}: {@code weight * cosine + (1 - weight) * second / max(second)}, where
   * {@code first} is the dense list (its scores the candidates' cosines) and each candidate only in
   * {@code second} gets its true cosine from {@code cosines} (one call for all of them), so a
   * memory the keyword list alone found competes with its own similarity, not with 0. Sorted as by
   * {@link #fuse}; such a candidate keeps {@code firstRank} 0 with {@code first} its cosine.
   */
  static List<Fused> fuseByCosine(
      List<Candidate> first, List<Candidate> second, Cosines cosines, double weight) {
    List<Fused> fused = fuse(Fusion.WEIGHTED, first, second, 0);
    List<String> keywordOnly = new ArrayList<>();
    for (Fused f : fused) {
      if (f.firstRank == 0) {
        keywordOnly.add(f.id);
      }
    }
    Map<String, Double> read = keywordOnly.isEmpty() ? Map.of() : cosines.of(keywordOnly);
    for (Fused f : fused) {
      if (f.firstRank == 0) {
        f.first = Math.max(0, read.getOrDefault(f.id, 0.0));
      }
      // fuse() left the keyword share alone in score (weight 0 for the first list)
      f.score = weight * f.first + (1 - weight) * f.score;
    }
    return sorted(fused);
  }

  private static List<Fused> fuse(
      Fusion fusion, List<Candidate> first, List<Candidate> second, double firstWeight) {
    Map<String, Fused> all = new LinkedHashMap<>();
    for (int i = 0; i < first.size(); i++) {
      Fused f = all.computeIfAbsent(first.get(i).id(), Fused::new);
      if (f.firstRank == 0) {
        f.first = Math.max(0, first.get(i).score());
        f.firstRank = i + 1;
      }
    }
    double maxSecond = 0;
    for (int i = 0; i < second.size(); i++) {
      Fused f = all.computeIfAbsent(second.get(i).id(), Fused::new);
      if (f.secondRank == 0) {
        f.second = second.get(i).score();
        f.secondRank = i + 1;
        maxSecond = Math.max(maxSecond, f.second);
      }
    }
    double rrfMax = 2.0 / (RRF_K + 1);
    for (Fused f : all.values()) {
      if (fusion == Fusion.RRF) {
        double s =
            (f.firstRank > 0 ? 1.0 / (RRF_K + f.firstRank) : 0)
                + (f.secondRank > 0 ? 1.0 / (RRF_K + f.secondRank) : 0);
        f.score = s / rrfMax;
      } else {
        double s2 = maxSecond > 0 ? Math.max(0, f.second) / maxSecond : 0;
        f.score = firstWeight * f.first + (1 - firstWeight) * s2;
      }
    }
    return sorted(all.values());
  }

  /**
   * Adds a further ranked list to a fused ranking: its candidate at rank {@code i} (from 1) adds
   * {@code weight / (60 + i)} on the fused scale (divided by the best two-list RRF sum, as {@link
   * #fuse} does), a candidate not yet in the ranking joins it with that score, and a new ranking is
   * returned, sorted again (best first, ties as in {@link #fuse}); the given one is left as it was.
   * {@code weight} 1 counts the list as much as one of the fused signals.
   */
  static List<Fused> add(List<Fused> fused, List<Candidate> list, double weight) {
    Map<String, Fused> all = new LinkedHashMap<>();
    for (Fused f : fused) {
      all.put(f.id, f.copy()); // the given ranking keeps its scores
    }
    double rrfMax = 2.0 / (RRF_K + 1);
    for (int i = 0; i < list.size(); i++) {
      Fused f = all.computeIfAbsent(list.get(i).id(), Fused::new);
      f.score += weight / (RRF_K + i + 1) / rrfMax;
    }
    return sorted(all.values());
  }

  /**
   * Lifts candidates behind others: each key of {@code followed} gets at least {@code factor} times
   * the fused score of the candidate its value names (a candidate not yet in the ranking joins it),
   * and the ranking is sorted again.
   */
  static List<Fused> lift(List<Fused> fused, Map<String, String> followed, double factor) {
    Map<String, Fused> all = new LinkedHashMap<>();
    for (Fused f : fused) {
      all.put(f.id, f.copy());
    }
    for (Map.Entry<String, String> e : followed.entrySet()) {
      Fused leader = all.get(e.getValue());
      if (leader == null) {
        continue;
      }
      Fused f = all.computeIfAbsent(e.getKey(), Fused::new);
      f.score = Math.max(f.score, leader.score * factor);
    }
    return sorted(all.values());
  }

  /** The candidates as a ranked list of ids with their fused scores. */
  static List<Candidate> asCandidates(List<Fused> fused) {
    List<Candidate> out = new ArrayList<>(fused.size());
    for (Fused f : fused) {
      out.add(new Candidate(f.id, f.score));
    }
    return out;
  }

  /** The candidates sorted best first, ties as in {@link #fuse}. */
  static List<Fused> sorted(java.util.Collection<Fused> fused) {
    List<Fused> out = new ArrayList<>(fused);
    out.sort(
        Comparator.comparingDouble((Fused f) -> -f.score)
            .thenComparingDouble(f -> -f.first)
            .thenComparing(f -> f.id));
    return out;
  }
}

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
 * taken as similarities in [0,1]. The fused score orders candidates; it depends on the other
 * candidates and is not a relevance (see {@link Relevance}). The ranking steps after fusion ({@link
 * RankingStep#fused}) add further lists to a fused ranking with {@link #add} (reciprocal ranks
 * again) and lift a candidate behind another with {@link #lift}.
 */
final class RankFusion {
  /** The RRF constant of Cormack et al. */
  static final int RRF_K = 60;

  static final double FIRST_WEIGHT = 0.7;

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
        f.score = FIRST_WEIGHT * f.first + (1 - FIRST_WEIGHT) * s2;
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

  private static List<Fused> sorted(java.util.Collection<Fused> fused) {
    List<Fused> out = new ArrayList<>(fused);
    out.sort(
        Comparator.comparingDouble((Fused f) -> -f.score)
            .thenComparingDouble(f -> -f.first)
            .thenComparing(f -> f.id));
    return out;
  }
}

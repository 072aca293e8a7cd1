package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one fusion of two ranked candidate lists, used for memories (dense and BM25) and for graph relations
 * (entity-centred and fact similarity). {@link Fusion#RRF}: each list adds {@code 1 / (60 + rank)}, divided by the
 * best possible sum so the fused score lies in [0,1]. {@link Fusion#WEIGHTED}: {@code 0.7 * first + 0.3 * second /
 * max(second)}, with the first list's scores taken as similarities in [0,1]. The fused score orders candidates; it
 * depends on the other candidates and is not a relevance (see {@link Relevance}).
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
  }

  /** Fuses the two ranked lists; the result is sorted by fused score, best first, ties by id. */
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
        double s = (f.firstRank > 0 ? 1.0 / (RRF_K + f.firstRank) : 0)
            + (f.secondRank > 0 ? 1.0 / (RRF_K + f.secondRank) : 0);
        f.score = s / rrfMax;
      } else {
        double s2 = maxSecond > 0 ? Math.max(0, f.second) / maxSecond : 0;
        f.score = FIRST_WEIGHT * f.first + (1 - FIRST_WEIGHT) * s2;
      }
    }
    List<Fused> out = new ArrayList<>(all.values());
    out.sort(Comparator.comparingDouble((Fused f) -> -f.score).thenComparing(f -> f.id));
    return out;
  }
}

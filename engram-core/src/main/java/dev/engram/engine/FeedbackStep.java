package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.spi.IndexField;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ranking step {@value Ranking#FEEDBACK}, pseudo-relevance feedback (Rocchio): the query vector
 * plus {@value #FEEDBACK_BETA} times the mean stored embedding of the best {@value #FEEDBACK_HITS}
 * fused hits, normalised, searches the dense index again inside the request's scope and filter, and
 * that list joins the ranking behind its first {@value #FEEDBACK_KEEPS} hits ({@link #behindHead}).
 * It runs after every other step that changes the fused ranking, so that the hits it keeps in place
 * are the final ones. Explain: a memory's move in the fused ranking.
 */
final class FeedbackStep implements RankingStep {
  /** How many of the best fused hits the feedback vector is drawn towards. */
  static final int FEEDBACK_HITS = 3;

  /** Weight of the hits' mean embedding beside the query's in the feedback vector. */
  static final double FEEDBACK_BETA = 0.5;

  /** How many of the best fused hits keep their places when the feedback list joins. */
  static final int FEEDBACK_KEEPS = 10;

  /** Weight of the feedback vector's dense list. */
  static final double FEEDBACK_WEIGHT = 0.5;

  @Override
  public String name() {
    return Ranking.FEEDBACK;
  }

  @Override
  public Phase phase() {
    return Phase.FUSED;
  }

  @Override
  public List<Fused> fused(RankingPass pass, List<Fused> fused) {
    float[] vector = pass.vector();
    List<String> top =
        fused.subList(0, Math.min(FEEDBACK_HITS, fused.size())).stream().map(f -> f.id).toList();
    double[] sum = new double[vector.length];
    int used = 0;
    for (StoredMemory m : pass.records.get(top)) {
      float[] e = m.embeddingView();
      if (e.length == vector.length) {
        for (int i = 0; i < e.length; i++) {
          sum[i] += e[i];
        }
        used++;
      }
    }
    if (used == 0) {
      return fused;
    }
    float[] moved = new float[vector.length];
    for (int i = 0; i < moved.length; i++) {
      moved[i] = (float) (vector[i] + FEEDBACK_BETA * sum[i] / used);
    }
    return behindHead(
        fused,
        RankFusion.add(
            fused,
            pass.engine.index.dense(
                pass.query,
                IndexField.TEXT,
                Vectors.normalized(moved, vector.length, "the feedback query"),
                pass.pool),
            FEEDBACK_WEIGHT),
        FEEDBACK_KEEPS);
  }

  /**
   * The first {@code keep} candidates of {@code fused} in their places and with their scores, then
   * the rest in the order of {@code joined} (the same ranking with a further list added): a step
   * that widens the search reorders what follows the best hits, never the best hits themselves.
   */
  static List<Fused> behindHead(List<Fused> fused, List<Fused> joined, int keep) {
    List<Fused> head = fused.subList(0, Math.min(keep, fused.size()));
    List<Fused> out = new ArrayList<>(head);
    Set<String> kept = new HashSet<>();
    head.forEach(f -> kept.add(f.id));
    for (Fused f : joined) {
      if (!kept.contains(f.id)) {
        out.add(f);
      }
    }
    return out;
  }

  @Override
  public String explainMove(int rankBefore, int rankAfter, double before, double after) {
    return "found again by the feedback query: "
        + RankingStep.super.explainMove(rankBefore, rankAfter, before, after);
  }
}

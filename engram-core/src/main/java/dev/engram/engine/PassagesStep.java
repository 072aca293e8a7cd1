package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.MemoryItem;
import dev.engram.Ranking;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ranking step {@value Ranking#PASSAGES}: a passage of a message split into {@code n} passages
 * ({@link MemoryItem#PASSAGE_COUNT}) gives up {@value #DISCOUNT}{@code * ln(n)} of its fused score,
 * and the ranking is sorted again. Each passage of a long message is one more chance to match a
 * query by accident, and the best of {@code n} such chances grows with {@code n}: without the
 * discount the passages of an assistant's long answers crowd out the short turns that state what
 * was asked about. The discount is in the units of a cosine, so the step acts under {@link
 * Fusion#COSINE} (the default without context embeddings), whose fused score is led by the cosine,
 * and changes nothing under the fusions by rank. The records of the fused candidates are read once,
 * through the search's {@link SearchRecords}, which the choice of hits then reads no more. Explain:
 * a discounted passage's fused rank and score before and after.
 */
final class PassagesStep implements RankingStep {
  /**
   * The discount per unit of {@code ln(n)}; chosen on the BEAM sample's verbatim passages, where
   * 0.04 to 0.16 all gain at 500 and 1,500 tokens and at top-10 (docs/BENCHMARKS.md).
   */
  static final double DISCOUNT = 0.08;

  @Override
  public String name() {
    return Ranking.PASSAGES;
  }

  @Override
  public Phase phase() {
    return Phase.FUSED;
  }

  @Override
  public List<Fused> fused(RankingPass pass, List<Fused> fused) {
    if (pass.engine.config.fusion() != Fusion.COSINE) {
      return fused; // reciprocal ranks, not cosines: a discount in cosine units means nothing there
    }
    Map<String, Double> discounts = new HashMap<>();
    for (StoredMemory m : pass.records.get(fused.stream().map(f -> f.id).toList())) {
      double d = discount(m.item());
      if (d > 0) {
        discounts.put(m.item().id(), d);
      }
    }
    if (discounts.isEmpty()) {
      return fused;
    }
    List<Fused> out = new ArrayList<>(fused.size());
    for (Fused f : fused) {
      Fused g = f.copy();
      g.score -= discounts.getOrDefault(f.id, 0.0);
      out.add(g);
    }
    return RankFusion.sorted(out);
  }

  /** The discount of a memory: 0 unless it is a passage of a message of several. */
  static double discount(MemoryItem item) {
    Object n = item.metadata().get(MemoryItem.PASSAGE_COUNT);
    if (!(n instanceof Number count) || count.intValue() < 2) {
      return 0;
    }
    return DISCOUNT * Math.log(count.intValue());
  }
}

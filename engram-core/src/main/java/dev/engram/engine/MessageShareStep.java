package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.MemoryItem;
import dev.engram.Ranking;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ranking steps {@value Ranking#PASSAGES} and {@value Ranking#FACTS}: a memory that is one of
 * {@code n} drawn from the same message (a passage of a message split into {@code n}, {@link
 * MemoryItem#PASSAGE_COUNT}; one of {@code n} facts an add drew from the same messages, {@link
 * MemoryItem#FACT_COUNT}) gives up {@code discount * ln(n)} of its fused score, and the ranking is
 * sorted again. Each such memory of a long message is one more chance to match a query by accident,
 * and the best of {@code n} such chances grows with {@code n}: without the discount an assistant's
 * long answers, and the many facts drawn from them, crowd out the short turns that state what was
 * asked about. The discount is in the units of a cosine, so the steps act under {@link
 * Fusion#COSINE} (the default without context embeddings), whose fused score is led by the cosine,
 * and change nothing under the fusions by rank. The fused candidates' metadata alone is read once,
 * through the search's {@link SearchRecords} (most candidates never become hits, and a whole record
 * costs a search far more). Explain: a discounted memory's fused rank and score before and after.
 */
final class MessageShareStep implements RankingStep {
  /**
   * The passages' discount per unit of {@code ln(n)}; chosen on the BEAM sample's verbatim
   * passages, where 0.04 to 0.16 all gain at 500 and 1,500 tokens and at top-10
   * (docs/benchmarks/log.md, "The passages of long messages discounted").
   */
  static final double PASSAGE_DISCOUNT = 0.08;

  /**
   * The facts' discount per unit of {@code ln(n)}; chosen on both samples' extract mode, where 0.04
   * gains the most at top-10 on both and at 500 tokens on BEAM (same log section).
   */
  static final double FACT_DISCOUNT = 0.04;

  private final String name;
  private final String countKey;
  private final double discount;

  private MessageShareStep(String name, String countKey, double discount) {
    this.name = name;
    this.countKey = countKey;
    this.discount = discount;
  }

  /** The step {@value Ranking#PASSAGES}. */
  static MessageShareStep passages() {
    return new MessageShareStep(Ranking.PASSAGES, MemoryItem.PASSAGE_COUNT, PASSAGE_DISCOUNT);
  }

  /** The step {@value Ranking#FACTS}. */
  static MessageShareStep facts() {
    return new MessageShareStep(Ranking.FACTS, MemoryItem.FACT_COUNT, FACT_DISCOUNT);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Phase phase() {
    return Phase.FUSED;
  }

  /**
   * Reads the keyword candidates' metadata with the keyword list, which a search may read while it
   * embeds the query ({@link QueryEmbeddings}): under {@link Fusion#COSINE} every keyword candidate
   * is in the fused ranking, whose metadata {@link #fused} reads; it then finds theirs read.
   */
  @Override
  public List<Candidate> keyword(RankingPass pass, String words, int k, List<Candidate> list) {
    if (pass.engine.config.fusion() == Fusion.COSINE) {
      pass.records.metadata(list.stream().map(Candidate::id).toList());
    }
    return list;
  }

  @Override
  public List<Fused> fused(RankingPass pass, List<Fused> fused) {
    if (pass.engine.config.fusion() != Fusion.COSINE) {
      return fused; // reciprocal ranks, not cosines: a discount in cosine units means nothing there
    }
    Map<String, Double> discounts = new HashMap<>();
    pass.records
        .metadata(fused.stream().map(f -> f.id).toList())
        .forEach(
            (id, metadata) -> {
              double d = discount(metadata);
              if (d > 0) {
                discounts.put(id, d);
              }
            });
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

  /**
   * This step's discount of a memory with {@code metadata}: 0 unless its count says it is one of
   * several.
   */
  double discount(Map<String, Object> metadata) {
    Object n = metadata.get(countKey);
    if (!(n instanceof Number count) || count.intValue() < 2) {
      return 0;
    }
    return discount * Math.log(count.intValue());
  }
}

package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.Ranking;
import dev.engram.graph.ScoredRelation;
import dev.engram.spi.GraphStore;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.List;
import java.util.Locale;

/**
 * The ranking step {@value Ranking#HUBS}: hubness reduction in every dense list of a search (the
 * memories' own and context embeddings, the graph's facts). Each list is read {@value
 * HubDensities#DEPTH} times deeper and ordered by similarity minus {@value HubDensities#PENALTY}
 * times density ({@link HubDensities}, which holds the densities). Explain: a memory's rank in the
 * dense list of its own embedding, when the step moved it.
 *
 * <p>Under {@link Fusion#COSINE} the memories' own dense list is read as it is: that fusion scores
 * each candidate by its cosine, not by its rank in the list, so the reorder would decide only which
 * memories enter the pool, at the cost of the densities (a scope's first searches compute them: 85
 * ms at p50 on BEAM's extracted facts). Measured with and without the step under the cosine fusion,
 * the difference stayed within 0.004 of the evidence either way on both samples, raw and extracted
 * (docs/benchmarks/log.md, "The ranking steps under the cosine fusion"). The context embeddings'
 * list and the graph's relations, which fuse by rank, keep it.
 */
final class HubsStep implements RankingStep {
  @Override
  public String name() {
    return Ranking.HUBS;
  }

  @Override
  public Phase phase() {
    return Phase.CANDIDATES;
  }

  @Override
  public List<Candidate> dense(
      RankingPass pass, HubDensities.Field field, int k, DenseRead<Candidate> next) {
    if (field == HubDensities.Field.OWN && pass.engine.config.fusion() == Fusion.COSINE) {
      return next.read(k);
    }
    List<Candidate> wide = next.read(k * HubDensities.DEPTH);
    List<Candidate> reordered =
        pass.engine.hubDensities.reordered(
            pass.engine.index, pass.query, field, wide, k, pass.records);
    if (pass.explains() && field == HubDensities.Field.OWN) {
      for (int i = 0; i < reordered.size(); i++) {
        String id = reordered.get(i).id();
        int plain = indexOf(wide, id);
        if (plain != i) {
          pass.explain(
              id, this, String.format(Locale.ROOT, "dense rank %d -> %d", plain + 1, i + 1));
        }
      }
    }
    return reordered;
  }

  @Override
  public List<ScoredRelation> relations(
      RankingPass pass, GraphStore graph, int k, DenseRead<ScoredRelation> next) {
    return pass.engine.hubDensities.reorderedRelations(
        graph, pass.query.tenant(), pass.query.scope(), next.read(k * HubDensities.DEPTH), k);
  }

  private static int indexOf(List<Candidate> list, String id) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i).id().equals(id)) {
        return i;
      }
    }
    return -1;
  }
}

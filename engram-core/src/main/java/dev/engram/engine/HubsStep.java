package dev.engram.engine;

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

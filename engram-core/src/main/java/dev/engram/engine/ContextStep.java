package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.spi.IndexField;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.List;
import java.util.Locale;

/**
 * The ranking step {@value Ranking#CONTEXT}: a memory is found through its source context (the
 * messages it was drawn from and the one before them). Before fusion, the keyword list searches the
 * contexts too ({@link KeywordSignal#withContext}). With context embeddings on ({@code
 * Engram.Builder#contextEmbeddings}), the dense list of the memories' context embeddings (read
 * through the steps, so reordered by hubs) then joins the fused ranking with weight {@value
 * #CONTEXT_DENSE_WEIGHT}, and a memory's own relevance is the larger of its embedding's and its
 * context's. Explain: the part of a memory's keyword score its context brought, and its move in the
 * fused ranking.
 */
final class ContextStep implements RankingStep {
  /**
   * Weight of the dense list of the memories' context embeddings (with context embeddings on; 1: as
   * much as one fused signal).
   */
  static final double CONTEXT_DENSE_WEIGHT = 1.0;

  @Override
  public String name() {
    return Ranking.CONTEXT;
  }

  @Override
  public Phase phase() {
    return Phase.CANDIDATES;
  }

  @Override
  public List<Candidate> keyword(RankingPass pass, String words, int k, List<Candidate> list) {
    List<Candidate> context = pass.engine.index.keyword(pass.query, IndexField.CONTEXT, words, k);
    if (pass.explains()) {
      context.forEach(
          c ->
              pass.explain(
                  c.id(),
                  this,
                  String.format(
                      Locale.ROOT,
                      "source context keyword score %.4f, counted %s",
                      c.score(),
                      KeywordSignal.CONTEXT_WEIGHT)));
    }
    return KeywordSignal.withContext(list, context, k);
  }

  @Override
  public List<Fused> fused(RankingPass pass, List<Fused> fused) {
    if (!pass.engine.config.contextEmbeddings()) {
      return fused;
    }
    return RankFusion.add(
        fused, pass.dense(HubDensities.Field.CONTEXT, pass.pool), CONTEXT_DENSE_WEIGHT);
  }

  @Override
  public boolean byContext(RankingPass pass) {
    return pass.engine.config.contextEmbeddings();
  }
}

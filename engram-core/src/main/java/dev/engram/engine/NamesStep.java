package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.spi.StoredMemory;
import java.util.List;

/**
 * The ranking step {@value Ranking#NAMES}: a query about someone or something the store has never
 * heard of gets nothing, memories and relations alike ({@link UnknownNames}, given the records of
 * the fusion's first candidates). Explain: nothing (there is no hit to explain).
 */
final class NamesStep implements RankingStep {
  @Override
  public String name() {
    return Ranking.NAMES;
  }

  @Override
  public Phase phase() {
    return Phase.HITS;
  }

  @Override
  public boolean empties(RankingPass pass, List<StoredMemory> first, double queryRelevance) {
    return UnknownNames.cut(
        pass.analyzer, pass.engine.index, pass.query, pass.request.query(), queryRelevance, first);
  }
}

package dev.engram.engine;

import dev.engram.MemoryItem;
import dev.engram.Ranking;
import java.util.Set;

/**
 * The ranking step {@value Ranking#DIVERSITY}: while the hits are chosen, a memory all of whose
 * source messages are already covered by better kept hits is kept only after the memories that
 * bring a new source message, so top-k or a budget covers more of the conversation. Explain: that a
 * hit was kept after the others.
 */
final class DiversityStep implements RankingStep {
  @Override
  public String name() {
    return Ranking.DIVERSITY;
  }

  @Override
  public Phase phase() {
    return Phase.HITS;
  }

  @Override
  public boolean defers(RankingPass pass, MemoryItem item, Set<String> covered) {
    return !item.sourceIds().isEmpty() && covered.containsAll(item.sourceIds());
  }
}

package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.SearchRequest;
import dev.engram.spi.StoredMemory;
import java.util.List;

/**
 * The ranking step {@value Ranking#NAMES}, the off-topic cut: a query that nothing in the store is
 * likely about (the best calibrated relevance among the fusion's first candidates is under {@link
 * SearchRequest#OFF_TOPIC_CUT}), or whose rare words the store does not hold while it names no one
 * the store knows and no memory is close to it ({@link UnfamiliarQuery}), both where the embedder's
 * map is {@linkplain dev.engram.spi.RelevanceCalibration#fitted() fitted} (a fallback map's
 * probabilities were never measured, so they do not decide a whole search), or that asks about
 * someone or something the store has never heard of ({@link UnknownNames}, given the records of
 * those candidates), gets nothing, memories and relations alike. Explain: nothing (there is no hit
 * to explain).
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
    boolean fitted = pass.engine.config.embedder().relevanceCalibration().fitted();
    return (fitted
            && (queryRelevance < SearchRequest.OFF_TOPIC_CUT
                || UnfamiliarQuery.cut(
                    pass.engine.index,
                    pass.query,
                    pass.analyzer.subjectWords(pass.request.query()),
                    queryRelevance,
                    () ->
                        UnknownNames.namesSomethingKnown(
                            pass.analyzer,
                            pass.engine.index,
                            pass.query,
                            pass.request.query(),
                            first))))
        || UnknownNames.cut(
            pass.analyzer,
            pass.engine.index,
            pass.query,
            pass.request.query(),
            queryRelevance,
            first);
  }
}

package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.analysis.QueryAnalyzer;
import dev.engram.analysis.QueryAnalyzer.Period;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.filter.Filter;
import dev.engram.filter.Filters;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import java.util.List;

/**
 * The ranking step {@value Ranking#DATES}: a query naming periods ({@link QueryAnalyzer#periods},
 * relative ones against the engine's clock) adds the dense list of the memories whose event time
 * falls in one of them to the fused ranking, with weight {@value #DATE_WEIGHT}. The list comes from
 * the index inside the request's scope and filter. Explain: a memory's move in the fused ranking.
 */
final class DatesStep implements RankingStep {
  /**
   * Weight of the dense list of the memories in the query's periods (1: as much as one fused
   * signal).
   */
  static final double DATE_WEIGHT = 1.0;

  @Override
  public String name() {
    return Ranking.DATES;
  }

  @Override
  public Phase phase() {
    return Phase.FUSED;
  }

  @Override
  public List<Fused> fused(RankingPass pass, List<Fused> fused) {
    List<Period> periods = pass.analyzer.periods(pass.request.query(), pass.engine.config.clock());
    if (periods.isEmpty()) {
      return fused;
    }
    return RankFusion.add(
        fused,
        pass.engine.index.dense(
            within(pass.query, periods), IndexField.TEXT, pass.vector(), pass.pool),
        DATE_WEIGHT);
  }

  /** The query restricted further to memories whose event time lies in one of the periods. */
  private static IndexQuery within(IndexQuery q, List<Period> periods) {
    Filter[] any = new Filter[periods.size()];
    for (int i = 0; i < any.length; i++) {
      Period p = periods.get(i);
      any[i] = Filters.and(Filters.gte("event_time", p.start()), Filters.lt("event_time", p.end()));
    }
    Filter inPeriod = any.length == 1 ? any[0] : Filters.or(any);
    return new IndexQuery(
        q.tenant(), q.scope(), Filters.and(q.filter(), inPeriod), q.includeExpired(), q.today());
  }

  @Override
  public String explainMove(int rankBefore, int rankAfter, double before, double after) {
    return "in a period the query names: "
        + RankingStep.super.explainMove(rankBefore, rankAfter, before, after);
  }
}

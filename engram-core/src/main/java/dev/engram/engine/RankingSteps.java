package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.filter.Filter;
import dev.engram.filter.Filters;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ranking steps of {@link Ranking} that reorder a search's fused candidates, in this order: with context
 * embeddings on ({@code Engram.Builder#contextEmbeddings}), the context step's dense list (reordered by the
 * memories' context densities with the step hubs, {@link HubDensities}) joins the fused ranking
 * ({@link RankFusion#add}); the event-date list joins it; the memories of the best hits' own and adjacent source
 * messages are lifted behind them ({@link RankFusion#lift}); the feedback list joins what follows the first
 * {@value #FEEDBACK_KEEPS} hits. Every list comes from the index
 * searches the fusion uses (dense and BM25) inside the request's scope and filter, so nothing outside the request's
 * reach enters. Records are read through the search's {@link SearchRecords}, which the choice of hits reuses. (The
 * diversity step applies while hits are kept, in {@link HybridSearch}.)
 */
final class RankingSteps {
  /**
   * Weight of the dense list of the memories' context embeddings (the context step with context embeddings on; 1:
   * as much as one fused signal).
   */
  static final double CONTEXT_DENSE_WEIGHT = 1.0;
  /** Weight of the dense list of the memories in the query's periods (1: as much as one fused signal). */
  static final double DATE_WEIGHT = 1.0;
  /** How many of the best fused hits bring their neighbours. */
  static final int NEIGHBOUR_ANCHORS = 10;
  /** A neighbour's fused score is at least this share of its anchor's. */
  static final double NEIGHBOUR_FACTOR = 0.5;
  /** How many of the best fused hits the feedback vector is drawn towards. */
  static final int FEEDBACK_HITS = 3;
  /** Weight of the hits' mean embedding beside the query's in the feedback vector. */
  static final double FEEDBACK_BETA = 0.5;
  /** How many of the best fused hits keep their places when the feedback list joins. */
  static final int FEEDBACK_KEEPS = 10;
  /** Weight of the feedback vector's dense list. */
  static final double FEEDBACK_WEIGHT = 0.5;

  private static final Pattern TRAILING_NUMBER = Pattern.compile("^(.*?)(\\d{1,9})$");

  private final Engine engine;

  RankingSteps(Engine engine) {
    this.engine = engine;
  }

  /** The fused candidates reordered by the steps of {@code ranking} that apply to them. */
  List<Fused> apply(Ranking ranking, IndexQuery q, String query, float[] vector, List<Fused> fused, int pool,
                    SearchRecords records) {
    if (ranking.context() && engine.config.contextEmbeddings()) {
      List<Candidate> context = engine.hubDensities.dense(engine.index, q, HubDensities.Field.CONTEXT, vector, pool,
          records, ranking.hubs());
      fused = RankFusion.add(fused, context, CONTEXT_DENSE_WEIGHT);
    }
    if (ranking.eventDates()) {
      List<QueryPeriods.Period> periods = QueryPeriods.of(query, engine.config.clock());
      if (!periods.isEmpty()) {
        fused = RankFusion.add(fused, engine.index.dense(within(q, periods), IndexField.TEXT, vector, pool),
            DATE_WEIGHT);
      }
    }
    if (ranking.neighbours()) {
      fused = withNeighbours(q, vector, fused, records);
    }
    if (ranking.feedback()) {
      fused = withFeedback(q, vector, fused, pool, records); // last: it keeps the first hits in place
    }
    return fused;
  }

  /** The query restricted further to memories whose event time lies in one of the periods. */
  private static IndexQuery within(IndexQuery q, List<QueryPeriods.Period> periods) {
    Filter[] any = new Filter[periods.size()];
    for (int i = 0; i < any.length; i++) {
      QueryPeriods.Period p = periods.get(i);
      any[i] = Filters.and(Filters.gte("event_time", p.start()), Filters.lt("event_time", p.end()));
    }
    Filter inPeriod = any.length == 1 ? any[0] : Filters.or(any);
    return new IndexQuery(q.tenant(), q.scope(), Filters.and(q.filter(), inPeriod), q.includeExpired(), q.today());
  }

  /**
   * Pseudo-relevance feedback (Rocchio): the query vector plus {@link #FEEDBACK_BETA} times the mean stored embedding
   * of the best {@link #FEEDBACK_HITS} fused hits, normalised, searches the dense index again, and that list joins
   * the ranking.
   */
  private List<Fused> withFeedback(IndexQuery q, float[] vector, List<Fused> fused, int pool,
                                   SearchRecords records) {
    List<String> top = fused.subList(0, Math.min(FEEDBACK_HITS, fused.size())).stream().map(f -> f.id).toList();
    double[] sum = new double[vector.length];
    int used = 0;
    for (StoredMemory m : records.get(top)) {
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
    return behindHead(fused, RankFusion.add(fused, engine.index.dense(q, IndexField.TEXT,
        Vectors.normalized(moved, vector.length, "the feedback query"), pool), FEEDBACK_WEIGHT), FEEDBACK_KEEPS);
  }

  /**
   * The first {@code keep} candidates of {@code fused} in their places and with their scores, then the rest in the
   * order of {@code joined} (the same ranking with a further list added): a step that widens the search reorders
   * what follows the best hits, never the best hits themselves.
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

  /**
   * Lifts the memories of the best hits' own and adjacent source messages behind them: one record read of the
   * anchors, one index search for the memories with any of their neighbouring source ids, one record read of those.
   */
  private List<Fused> withNeighbours(IndexQuery q, float[] vector, List<Fused> fused, SearchRecords records) {
    List<String> anchors = fused.subList(0, Math.min(NEIGHBOUR_ANCHORS, fused.size())).stream().map(f -> f.id)
        .toList();
    Map<String, Set<String>> nearAnchor = new LinkedHashMap<>(); // anchor id -> its own and adjacent source ids
    for (StoredMemory m : records.get(anchors)) {
      Set<String> near = new LinkedHashSet<>();
      m.item().sourceIds().forEach(s -> near.addAll(adjacent(s)));
      nearAnchor.put(m.id(), near);
    }
    Set<String> sources = new LinkedHashSet<>();
    nearAnchor.values().forEach(sources::addAll);
    if (sources.isEmpty()) {
      return fused;
    }
    IndexQuery near = new IndexQuery(q.tenant(), q.scope(),
        Filters.and(q.filter(), Filters.in("source_id", new ArrayList<>(sources))), q.includeExpired(), q.today());
    List<Candidate> found = engine.index.dense(near, IndexField.TEXT, vector, sources.size() * 4);
    Map<String, String> followed = new LinkedHashMap<>(); // neighbour -> the best anchor it is near, never itself
    for (StoredMemory m : records.get(found.stream().map(Candidate::id).toList())) {
      for (String anchor : anchors) {
        Set<String> close = nearAnchor.get(anchor);
        if (!anchor.equals(m.id()) && close != null && m.item().sourceIds().stream().anyMatch(close::contains)) {
          followed.put(m.id(), anchor);
          break;
        }
      }
    }
    return RankFusion.lift(fused, followed, NEIGHBOUR_FACTOR);
  }

  /** A source id, and the ids with its trailing number one less and one more ({@code D3:5}: D3:4, D3:6). */
  static Set<String> adjacent(String sourceId) {
    Set<String> out = new LinkedHashSet<>();
    out.add(sourceId);
    Matcher m = TRAILING_NUMBER.matcher(sourceId);
    if (m.matches()) {
      long n = Long.parseLong(m.group(2));
      if (n > 0) {
        out.add(m.group(1) + (n - 1));
      }
      out.add(m.group(1) + (n + 1));
    }
    return out;
  }
}

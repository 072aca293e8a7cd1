package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.filter.Filters;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ranking step {@value Ranking#NEIGHBOURS}: the memories of the best {@value
 * #NEIGHBOUR_ANCHORS} fused hits' own and adjacent source messages are lifted behind them, to at
 * least {@value #NEIGHBOUR_FACTOR} of their fused score ({@link RankFusion#lift}): an answer often
 * spans consecutive turns. One record read of the anchors (through the search's {@link
 * SearchRecords}), one index search for the memories with any of their neighbouring source ids
 * inside the request's scope and filter, one record read of those. Explain: a memory's move in the
 * fused ranking.
 */
final class NeighboursStep implements RankingStep {
  /** How many of the best fused hits bring their neighbours. */
  static final int NEIGHBOUR_ANCHORS = 10;

  /** A neighbour's fused score is at least this share of its anchor's. */
  static final double NEIGHBOUR_FACTOR = 0.5;

  private static final Pattern TRAILING_NUMBER = Pattern.compile("^(.*?)(\\d{1,9})$");

  @Override
  public String name() {
    return Ranking.NEIGHBOURS;
  }

  @Override
  public Phase phase() {
    return Phase.FUSED;
  }

  @Override
  public List<Fused> fused(RankingPass pass, List<Fused> fused) {
    List<String> anchors =
        fused.subList(0, Math.min(NEIGHBOUR_ANCHORS, fused.size())).stream()
            .map(f -> f.id)
            .toList();
    Map<String, Set<String>> nearAnchor =
        new LinkedHashMap<>(); // anchor id -> its own and adjacent source ids
    for (StoredMemory m : pass.records.get(anchors)) {
      Set<String> near = new LinkedHashSet<>();
      m.item().sourceIds().forEach(s -> near.addAll(adjacent(s)));
      nearAnchor.put(m.id(), near);
    }
    Set<String> sources = new LinkedHashSet<>();
    nearAnchor.values().forEach(sources::addAll);
    if (sources.isEmpty()) {
      return fused;
    }
    IndexQuery q = pass.query;
    IndexQuery near =
        new IndexQuery(
            q.tenant(),
            q.scope(),
            Filters.and(q.filter(), Filters.in("source_id", new ArrayList<>(sources))),
            q.includeExpired(),
            q.today());
    List<Candidate> found =
        pass.engine.index.dense(near, IndexField.TEXT, pass.vector, sources.size() * 4);
    Map<String, String> followed =
        new LinkedHashMap<>(); // neighbour -> the best anchor it is near, never itself
    for (StoredMemory m : pass.records.get(found.stream().map(Candidate::id).toList())) {
      for (String anchor : anchors) {
        Set<String> close = nearAnchor.get(anchor);
        if (!anchor.equals(m.id())
            && close != null
            && m.item().sourceIds().stream().anyMatch(close::contains)) {
          followed.put(m.id(), anchor);
          break;
        }
      }
    }
    return RankFusion.lift(fused, followed, NEIGHBOUR_FACTOR);
  }

  /**
   * A source id, and the ids with its trailing number one less and one more ({@code D3:5}: D3:4,
   * D3:6).
   */
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

  @Override
  public String explainMove(int rankBefore, int rankAfter, double before, double after) {
    return "near a better hit's source message: "
        + RankingStep.super.explainMove(rankBefore, rankAfter, before, after);
  }
}

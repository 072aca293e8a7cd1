package dev.engram.engine;

import dev.engram.Ranking;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.filter.Filter;
import dev.engram.filter.Filters;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ranking step {@value Ranking#NEIGHBOURS}: the memories said beside the best {@value
 * #NEIGHBOUR_ANCHORS} fused hits are lifted behind them, to at least {@value #NEIGHBOUR_FACTOR} of
 * their fused score ({@link RankFusion#lift}): an answer often spans consecutive turns.
 *
 * <p>"Beside" is read from the provenance every source gives, never from the form of its message
 * ids: a memory's place in its conversation is its event time (the message's timestamp, or the
 * add's) and then its creation time (adds are stored in the order they were said). Among the
 * memories of an anchor's scope said on the same event day, near the query by meaning (one filtered
 * dense search for all anchors, {@value #CANDIDATES_PER_ANCHOR} per anchor), an anchor's neighbours
 * are those from the same message (a source id in common), and, at most {@value #PER_SIDE} on each
 * side, the nearest ones before it and after it in that order (the same add counts as beside it:
 * the other turn of its exchange). Memories whose place equals the anchor's and which share no
 * message with it (a batch stored at one instant) are beside it too, the nearest by meaning first,
 * within the same {@value #PER_SIDE}. One record read of the anchors (through the search's {@link
 * SearchRecords}), one index search, one record read of what it found. Explain: a memory's move in
 * the fused ranking.
 */
final class NeighboursStep implements RankingStep {
  /** How many of the best fused hits bring their neighbours. */
  static final int NEIGHBOUR_ANCHORS = 10;

  /** A neighbour's fused score is at least this share of its anchor's. */
  static final double NEIGHBOUR_FACTOR = 0.5;

  /** The dense search reads this many memories per anchor. */
  static final int CANDIDATES_PER_ANCHOR = 6;

  /** At most this many neighbours before an anchor, and as many after it. */
  static final int PER_SIDE = 1;

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
    List<String> anchorIds =
        fused.subList(0, Math.min(NEIGHBOUR_ANCHORS, fused.size())).stream()
            .map(f -> f.id)
            .toList();
    if (anchorIds.isEmpty()) {
      return fused;
    }
    Map<String, StoredMemory> anchors = new LinkedHashMap<>();
    pass.records.get(anchorIds).forEach(m -> anchors.put(m.id(), m));
    Set<LocalDate> days = new LinkedHashSet<>();
    boolean undated = false;
    for (StoredMemory m : anchors.values()) {
      Instant at = m.item().eventTime();
      if (at == null) {
        undated = true;
      } else {
        days.add(LocalDate.ofInstant(at, ZoneOffset.UTC));
      }
    }
    if (anchors.isEmpty()) {
      return fused;
    }
    IndexQuery q = pass.query;
    Filter near = q.filter();
    if (!undated) {
      List<Filter> sameDay = new ArrayList<>();
      for (LocalDate d : days) {
        sameDay.add(
            Filters.and(
                Filters.gte("event_time", d.atStartOfDay(ZoneOffset.UTC).toInstant()),
                Filters.lt("event_time", d.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant())));
      }
      near = Filters.and(near, Filters.or(sameDay.toArray(Filter[]::new)));
    }
    IndexQuery nearQuery =
        new IndexQuery(q.tenant(), q.scope(), near, q.includeExpired(), q.today());
    List<Candidate> found =
        pass.engine.index.dense(
            nearQuery, IndexField.TEXT, pass.vector(), anchors.size() * CANDIDATES_PER_ANCHOR);
    Map<String, StoredMemory> byId = new LinkedHashMap<>();
    pass.records.get(found.stream().map(Candidate::id).toList()).forEach(m -> byId.put(m.id(), m));
    List<StoredMemory> candidates = new ArrayList<>(); // nearest by meaning first
    for (Candidate c : found) {
      StoredMemory m = byId.get(c.id());
      if (m != null) {
        candidates.add(m);
      }
    }
    Map<String, String> followed = new LinkedHashMap<>(); // neighbour -> the best anchor it is near
    for (String anchorId : anchorIds) {
      StoredMemory anchor = anchors.get(anchorId);
      if (anchor == null) {
        continue;
      }
      for (String n : beside(anchor, candidates)) {
        followed.putIfAbsent(n, anchorId);
      }
    }
    return RankFusion.lift(fused, followed, NEIGHBOUR_FACTOR);
  }

  /**
   * The ids of the memories beside {@code anchor} among {@code candidates} (nearest by meaning
   * first; see the class comment), never the anchor itself.
   */
  static List<String> beside(StoredMemory anchor, List<StoredMemory> candidates) {
    Set<String> sources = new LinkedHashSet<>(anchor.item().sourceIds());
    List<String> out = new ArrayList<>();
    List<StoredMemory> before = new ArrayList<>();
    List<StoredMemory> after = new ArrayList<>();
    List<StoredMemory> level = new ArrayList<>();
    for (StoredMemory m : candidates) {
      if (m.id().equals(anchor.id())) {
        continue;
      }
      if (m.item().sourceIds().stream().anyMatch(sources::contains)) {
        out.add(m.id()); // the same message
        continue;
      }
      if (!sameDay(anchor, m)) {
        continue;
      }
      int c = PLACE.compare(m, anchor);
      (c < 0 ? before : c > 0 ? after : level).add(m);
    }
    before.sort(PLACE.reversed()); // nearest first; a stable sort keeps ties by meaning
    after.sort(PLACE);
    List<StoredMemory> nearest = new ArrayList<>(level);
    int taken = 0;
    for (StoredMemory m : before) {
      if (taken++ == PER_SIDE) {
        break;
      }
      nearest.add(m);
    }
    taken = 0;
    for (StoredMemory m : after) {
      if (taken++ == PER_SIDE) {
        break;
      }
      nearest.add(m);
    }
    int side = 0;
    for (StoredMemory m : nearest) {
      if (level.contains(m) && side++ >= 2 * PER_SIDE) {
        continue; // a batch stored at one instant: only the nearest by meaning
      }
      out.add(m.id());
    }
    return out;
  }

  /** A memory's place in its conversation: its event time (none first), then its creation time. */
  static final Comparator<StoredMemory> PLACE =
      Comparator.comparing(
              (StoredMemory m) -> m.item().eventTime(),
              Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(m -> m.item().createdAt());

  private static boolean sameDay(StoredMemory a, StoredMemory b) {
    Instant x = a.item().eventTime();
    Instant y = b.item().eventTime();
    if (x == null || y == null) {
      return x == null && y == null;
    }
    return LocalDate.ofInstant(x, ZoneOffset.UTC).equals(LocalDate.ofInstant(y, ZoneOffset.UTC));
  }

  @Override
  public String explainMove(int rankBefore, int rankAfter, double before, double after) {
    return "near a better hit's source message: "
        + RankingStep.super.explainMove(rankBefore, rankAfter, before, after);
  }
}

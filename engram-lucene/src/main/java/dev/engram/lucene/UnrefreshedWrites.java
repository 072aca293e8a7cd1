package dev.engram.lucene;

import dev.engram.MemoryItem;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The memories written to the index since its searchers were last refreshed, with their analysed
 * terms, so that a repeat check ({@link LuceneSearchIndex#repeatCandidates}) can see them without
 * the cost of a refresh. Each entry carries the number of the change that wrote it; a refresh that
 * covers that change drops it.
 *
 * <p>A look-up reads only the writes holding one of its terms: the writes are analysed on the first
 * look-up after them (so writes no one looks up before the next refresh cost nothing) into
 * postings, per term the writes holding it. A write that is removed, written again or covered by a
 * refresh stays in the postings, marked dead, until they are rebuilt from the live writes once the
 * dead ones outnumber them.
 *
 * <p>It stands for at most {@value #CAPACITY} writes, and not for a change it does not record (a
 * cleared or recreated index): after one of those it answers nothing until a refresh covers it, and
 * callers refresh instead. A removal drops the removed memory's entry; the searchers may still
 * return it until they are refreshed, so callers read the records.
 *
 * <p>Thread-safe: the writer records while searches read.
 */
final class UnrefreshedWrites {
  static final int CAPACITY = 2048;

  /** A write, numbered in the order of writing; its terms are set when it is first analysed. */
  private static final class Entry {
    final long change;
    final long order;
    final String tenant;
    final MemoryItem item;
    Set<String> terms;
    boolean live = true;

    Entry(long change, long order, String tenant, MemoryItem item) {
      this.change = change;
      this.order = order;
      this.tenant = tenant;
      this.item = item;
    }
  }

  private final Function<String, Collection<String>> analysis;

  /** By {@link IndexFields#key}, the live writes. */
  private final Map<String, Entry> entries = new LinkedHashMap<>();

  /** Live writes not analysed yet. */
  private final List<Entry> unanalysed = new ArrayList<>();

  /**
   * Per term, the analysed writes holding it, dead ones included until {@link
   * #compactIfMostlyDead}.
   */
  private final Map<String, List<Entry>> postings = new HashMap<>();

  /** Dead writes still held by {@link #postings} or {@link #unanalysed}. */
  private int dead;

  private long written;

  /**
   * The last change this cannot stand for, or -1: until a refresh covers it, {@link #matching}
   * answers nothing.
   */
  private long blockedThrough = -1;

  /**
   * @param analysis a text's terms, as the index analyses it
   */
  UnrefreshedWrites(Function<String, Collection<String>> analysis) {
    this.analysis = analysis;
  }

  /** Records that change {@code change} gave the writer {@code item} of {@code tenant}. */
  synchronized void written(long change, String tenant, MemoryItem item) {
    String key = IndexFields.key(tenant, item.id());
    kill(entries.remove(key));
    if (entries.size() >= CAPACITY) {
      blocked(change);
      return;
    }
    Entry e = new Entry(change, written++, tenant, item);
    entries.put(key, e);
    unanalysed.add(e);
    compactIfMostlyDead(); // a memory written again and again between two refreshes
  }

  /** Drops the entry of a removed memory. */
  synchronized void removed(String tenant, String id) {
    kill(entries.remove(IndexFields.key(tenant, id)));
    compactIfMostlyDead();
  }

  /** Drops the entries of a tenant whose memories were all removed. */
  synchronized void removedTenant(String tenant) {
    entries.values().removeIf(e -> e.tenant.equals(tenant) && kill(e));
    compactIfMostlyDead();
  }

  /**
   * Records a change this cannot stand for: {@link #matching} answers nothing until a refresh
   * covers it.
   */
  synchronized void blocked(long change) {
    entries.clear();
    unanalysed.clear();
    postings.clear();
    dead = 0;
    blockedThrough = Math.max(blockedThrough, change);
  }

  /** The searchers now see every change up to {@code change}. */
  synchronized void refreshedThrough(long change) {
    entries.values().removeIf(e -> e.change <= change && kill(e));
    if (blockedThrough <= change) {
      blockedThrough = -1;
    }
    compactIfMostlyDead();
  }

  /** How many writes are recorded. */
  synchronized int size() {
    return entries.size();
  }

  /**
   * The {@code k} recorded memories that {@code query} restricts to (tenant, scope and expiry; only
   * for a query without a filter) and that hold the largest share of {@code terms} (at least one),
   * the largest first and, among equals, the newest first; a score is that share. Empty when this
   * cannot answer: the caller must refresh instead.
   */
  synchronized Optional<List<Candidate>> matching(
      IndexQuery query, Collection<String> terms, int k) {
    if (blockedThrough >= 0 || !(query.filter() instanceof Filter.All) || terms.isEmpty()) {
      return Optional.empty();
    }
    analysePending();
    String user = query.scope().userId().orElse(null);
    String agent = query.scope().agentId().orElse(null);
    String run = query.scope().runId().orElse(null);
    Map<Entry, int[]> counts =
        new HashMap<>(); // per write holding a term: how many of the terms, -1 out of scope
    for (String t : terms) {
      for (Entry e : postings.getOrDefault(t, List.of())) {
        if (!e.live) {
          continue;
        }
        int[] count =
            counts.computeIfAbsent(
                e, x -> new int[] {inScope(x, query, user, agent, run) ? 0 : -1});
        if (count[0] >= 0) {
          count[0]++;
        }
      }
    }
    List<Map.Entry<Entry, int[]>> matches = new ArrayList<>();
    for (Map.Entry<Entry, int[]> m : counts.entrySet()) {
      if (m.getValue()[0] > 0) {
        matches.add(m);
      }
    }
    matches.sort(
        Comparator.comparingInt((Map.Entry<Entry, int[]> m) -> -m.getValue()[0])
            .thenComparingLong(m -> -m.getKey().order));
    List<Candidate> out = new ArrayList<>(Math.min(k, matches.size()));
    for (Map.Entry<Entry, int[]> m : matches.subList(0, Math.min(k, matches.size()))) {
      out.add(new Candidate(m.getKey().item.id(), (double) m.getValue()[0] / terms.size()));
    }
    return Optional.of(List.copyOf(out));
  }

  private void analysePending() {
    for (Entry e : unanalysed) {
      if (!e.live) {
        continue;
      }
      e.terms = Set.copyOf(analysis.apply(e.item.text()));
      post(e);
    }
    unanalysed.clear();
  }

  private void post(Entry e) {
    for (String t : e.terms) {
      postings.computeIfAbsent(t, x -> new ArrayList<>()).add(e);
    }
  }

  private static boolean inScope(Entry e, IndexQuery query, String user, String agent, String run) {
    MemoryItem m = e.item;
    return e.tenant.equals(query.tenant())
        && matches(user, m.userId())
        && matches(agent, m.agentId())
        && matches(run, m.runId())
        && (query.includeExpired() || !m.isExpired(query.today()));
  }

  /**
   * Marks a write dead (for removal from {@link #entries}, hence {@code true}); {@code null} is
   * ignored.
   */
  private boolean kill(Entry e) {
    if (e != null && e.live) {
      e.live = false;
      dead++;
    }
    return true;
  }

  /**
   * Rebuilds the postings and the pending list from the live writes once the dead ones outnumber
   * them.
   */
  private void compactIfMostlyDead() {
    if (entries.isEmpty()) {
      unanalysed.clear();
      postings.clear();
      dead = 0;
      return;
    }
    if (dead <= entries.size()) {
      return;
    }
    postings.clear();
    dead = 0;
    for (Entry e : entries.values()) {
      if (e.terms != null) {
        post(e);
      }
    }
    unanalysed.removeIf(e -> !e.live);
  }

  /** An id the query leaves unset ({@code null}) matches anything. */
  private static boolean matches(String wanted, String actual) {
    return wanted == null || wanted.equals(actual);
  }
}

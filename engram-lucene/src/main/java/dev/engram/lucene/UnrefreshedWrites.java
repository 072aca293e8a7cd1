package dev.engram.lucene;

import dev.engram.MemoryItem;
import dev.engram.filter.Filter;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The memories written to the index since its searchers were last refreshed, with their analysed terms, so that a
 * repeat check ({@link LuceneSearchIndex#repeatCandidates}) can see them without the cost of a refresh. Each entry
 * carries the number of the change that wrote it; a refresh that covers that change drops it.
 *
 * <p>It stands for at most {@value #CAPACITY} writes, and not for a change it does not record (a cleared or
 * recreated index): after one of those it answers nothing until a refresh covers it, and callers refresh instead.
 * A removal drops the removed memory's entry; the searchers may still return it until they are refreshed, so
 * callers read the records.
 *
 * <p>Thread-safe: the writer records while searches read.
 */
final class UnrefreshedWrites {
  static final int CAPACITY = 512;

  /** A write; its text is analysed on the first look-up that reaches it, so writes no one looks up cost nothing. */
  private static final class Entry {
    final long change;
    final String tenant;
    final MemoryItem item;
    Set<String> terms;

    Entry(long change, String tenant, MemoryItem item) {
      this.change = change;
      this.tenant = tenant;
      this.item = item;
    }
  }

  private final Function<String, Collection<String>> analysis;
  /** By {@link IndexFields#key}, oldest write first: a memory written again moves to the end. */
  private final Map<String, Entry> entries = new LinkedHashMap<>();
  /** The last change this cannot stand for, or -1: until a refresh covers it, {@link #matching} answers nothing. */
  private long blockedThrough = -1;

  /** @param analysis a text's terms, as the index analyses it */
  UnrefreshedWrites(Function<String, Collection<String>> analysis) {
    this.analysis = analysis;
  }

  /** Records that change {@code change} gave the writer {@code item} of {@code tenant}. */
  synchronized void written(long change, String tenant, MemoryItem item) {
    String key = IndexFields.key(tenant, item.id());
    entries.remove(key);
    if (entries.size() >= CAPACITY) {
      blocked(change);
      return;
    }
    entries.put(key, new Entry(change, tenant, item));
  }

  /** Drops the entry of a removed memory. */
  synchronized void removed(String tenant, String id) {
    entries.remove(IndexFields.key(tenant, id));
  }

  /** Drops the entries of a tenant whose memories were all removed. */
  synchronized void removedTenant(String tenant) {
    entries.values().removeIf(e -> e.tenant.equals(tenant));
  }

  /** Records a change this cannot stand for: {@link #matching} answers nothing until a refresh covers it. */
  synchronized void blocked(long change) {
    entries.clear();
    blockedThrough = Math.max(blockedThrough, change);
  }

  /** The searchers now see every change up to {@code change}. */
  synchronized void refreshedThrough(long change) {
    entries.values().removeIf(e -> e.change <= change);
    if (blockedThrough <= change) {
      blockedThrough = -1;
    }
  }

  /** How many writes are recorded. */
  synchronized int size() {
    return entries.size();
  }

  /**
   * The {@code k} recorded memories that {@code query} restricts to (tenant, scope and expiry; only for a query
   * without a filter) and that hold the largest share of {@code terms} (at least one), the largest first and, among
   * equals, the newest first; a score is that share. Empty when this cannot answer: the caller must refresh
   * instead.
   */
  synchronized Optional<List<Candidate>> matching(IndexQuery query, Collection<String> terms, int k) {
    if (blockedThrough >= 0 || !(query.filter() instanceof Filter.All) || terms.isEmpty()) {
      return Optional.empty();
    }
    String user = query.scope().userId().orElse(null);
    String agent = query.scope().agentId().orElse(null);
    String run = query.scope().runId().orElse(null);
    List<Entry> newestLast = new ArrayList<>(entries.values());
    List<Candidate> matches = new ArrayList<>();
    for (int i = newestLast.size() - 1; i >= 0; i--) {
      Entry e = newestLast.get(i);
      MemoryItem m = e.item;
      boolean inScope = e.tenant.equals(query.tenant()) && matches(user, m.userId()) && matches(agent, m.agentId())
          && matches(run, m.runId()) && (query.includeExpired() || !m.isExpired(query.today()));
      if (inScope) {
        if (e.terms == null) {
          e.terms = Set.copyOf(analysis.apply(e.item.text()));
        }
        int count = 0;
        for (String t : terms) {
          if (e.terms.contains(t)) {
            count++;
          }
        }
        if (count > 0) {
          matches.add(new Candidate(e.item.id(), (double) count / terms.size()));
        }
      }
    }
    matches.sort(Comparator.comparingDouble(Candidate::score).reversed()); // stable: newest first among equals
    return Optional.of(List.copyOf(matches.subList(0, Math.min(k, matches.size()))));
  }

  /** An id the query leaves unset ({@code null}) matches anything. */
  private static boolean matches(String wanted, String actual) {
    return wanted == null || wanted.equals(actual);
  }
}

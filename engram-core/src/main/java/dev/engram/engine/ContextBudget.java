package dev.engram.engine;

import dev.engram.SearchHit;
import dev.engram.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * A search's context budget while hits are chosen: memories are taken in order while their texts
 * fit together into the budget (counted by the engine's {@link TokenCounter}); a memory that would
 * overflow it is skipped, so a shorter one further down can still fit. The one place a budget is
 * applied, before reranking (while candidates are read) or after it. Not thread-safe: one per
 * search.
 */
final class ContextBudget {
  private final TokenCounter counter;
  private final int limit;
  private int used;

  private ContextBudget(TokenCounter counter, int limit) {
    this.counter = counter;
    this.limit = limit;
  }

  /**
   * The request's budget, counted by {@code counter}; no limit (and nothing counted) when it has
   * none.
   */
  static ContextBudget of(TokenCounter counter, OptionalInt maxTokens) {
    return maxTokens.isPresent() ? new ContextBudget(counter, maxTokens.getAsInt()) : unlimited();
  }

  /** A budget that takes everything (and counts nothing). */
  static ContextBudget unlimited() {
    return new ContextBudget(text -> 0, Integer.MAX_VALUE);
  }

  /** The tokens taken so far. */
  int used() {
    return used;
  }

  /** Takes the text if it fits into what is left; false (and nothing used) if it does not. */
  boolean take(String text) {
    int cost = counter.count(text);
    if (cost < 0) {
      throw new IllegalStateException(
          "the token counter "
              + counter
              + " counted "
              + cost
              + " tokens; a count is never"
              + " negative");
    }
    if (cost > limit - used) {
      return false;
    }
    used += cost;
    return true;
  }

  /** True once nothing is left. */
  boolean spent() {
    return used >= limit;
  }

  /** At most {@code limit} of the hits, in their order, that fit into this budget. */
  List<SearchHit> fit(List<SearchHit> hits, int limit) {
    List<SearchHit> out = new ArrayList<>(Math.min(limit, hits.size()));
    for (SearchHit h : hits) {
      if (spent() || out.size() == limit) {
        break;
      }
      if (take(h.memory().text())) {
        out.add(h);
      }
    }
    return out;
  }
}

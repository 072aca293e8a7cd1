package dev.engram.engine;

import dev.engram.GraphRelation;
import dev.engram.SearchHit;
import dev.engram.SearchResult;
import dev.engram.TokenCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One context budget ({@code SearchRequest.maxTokens}) over memories and graph relations together,
 * so that the budget covers everything a search hands the model. A relation costs its fact's tokens
 * (by the engine's {@link TokenCounter}).
 *
 * <ol>
 *   <li>A relation whose fact is the text of a memory the budgeted memory search kept says nothing
 *       new (the offline graph's facts are memory texts) and is left out.
 *   <li>The other relations, in their order, take what fits into at most {@value
 *       #RELATION_SHARE_PERCENT}% of the budget.
 *   <li>The memories, in their order (relevance), take what fits into the rest; a memory that does
 *       not fit is skipped and a shorter one further down may still fit, as in {@link
 *       ContextBudget}.
 * </ol>
 *
 * So relations never push the context over the budget; with no relation left the memories keep the
 * whole budget.
 */
final class GraphContextBudget {
  /** The most of a budget that relations may take, in percent. */
  static final int RELATION_SHARE_PERCENT = 30;

  private GraphContextBudget() {}

  /**
   * The memories and relations of a search with a budget of {@code maxTokens}, fitted into it
   * together.
   */
  static SearchResult fit(
      List<SearchHit> memories,
      List<GraphRelation> relations,
      int maxTokens,
      TokenCounter counter) {
    Set<String> shown = new HashSet<>();
    memories.forEach(h -> shown.add(h.memory().text().strip()));
    ContextBudget forRelations =
        ContextBudget.of(
            counter,
            OptionalInt.of(Math.max(1, (int) ((long) maxTokens * RELATION_SHARE_PERCENT / 100))));
    List<GraphRelation> kept = new ArrayList<>();
    for (GraphRelation r : relations) {
      if (shown.add(r.fact().strip()) && forRelations.take(r.fact())) {
        kept.add(r);
      }
    }
    if (forRelations.used() == 0) {
      return new SearchResult(memories, kept);
    }
    List<SearchHit> fitted =
        ContextBudget.of(counter, OptionalInt.of(Math.max(1, maxTokens - forRelations.used())))
            .fit(memories, memories.size());
    return new SearchResult(fitted, kept);
  }
}

package dev.engram.engine;

import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The keyword signal of a search: BM25 of the query over the memories' texts ({@link RankingPass})
 * and, with the ranking step {@link ContextStep context}, over their source contexts too, a
 * context's words counting {@value #CONTEXT_WEIGHT} as much as the memory's own (a sum of per-field
 * BM25, as a query over both fields with that boost would score it). So a memory is found through
 * the question it answered, while a memory whose own text matches keeps the advantage over one
 * whose context does. The words that only make the query a question are left out ({@link
 * dev.engram.analysis.QueryAnalyzer#keywords}).
 */
final class KeywordSignal {
  /** Weight of a memory's source context beside its text. */
  static final double CONTEXT_WEIGHT = 0.5;

  private KeywordSignal() {}

  /**
   * The best {@code k} memories by the keyword scores of their texts plus {@value #CONTEXT_WEIGHT}
   * times those of their source contexts, best first (ties by id); {@code text} as it is if no
   * context matched.
   */
  static List<Candidate> withContext(List<Candidate> text, List<Candidate> context, int k) {
    if (context.isEmpty()) {
      return text;
    }
    Map<String, Double> score = new LinkedHashMap<>();
    text.forEach(c -> score.merge(c.id(), c.score(), Double::sum));
    context.forEach(c -> score.merge(c.id(), CONTEXT_WEIGHT * c.score(), Double::sum));
    List<Candidate> out = new ArrayList<>(score.size());
    score.forEach((id, s) -> out.add(new Candidate(id, s)));
    out.sort(Comparator.comparingDouble((Candidate c) -> -c.score()).thenComparing(Candidate::id));
    return List.copyOf(out.subList(0, Math.min(k, out.size())));
  }
}

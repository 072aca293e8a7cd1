package dev.engram.engine;

import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.SearchIndex.TermCounts;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Part of the ranking step {@link dev.engram.Ranking#NAMES names} ({@link NamesStep}): a query
 * whose informative words the search's reach does not hold, that names nothing the reach knows, and
 * that no memory matches closely, is about something else, and gets nothing. A query word's weight
 * is its rarity in the reach, {@code ln((n + 1) / (df + 1))} for {@code n} memories of which {@code
 * df} hold the word in their text or source context (the larger count of the two): a word most
 * memories hold (the user's name, the store's topic) weighs about 0, a word no memory holds weighs
 * the most. The words weighed are the query's words about its subject ({@link
 * dev.engram.analysis.QueryAnalyzer#subjectWords}): a question's words about the conversation
 * itself ("what did I mention in our conversations") are in few memories of any subject, so they
 * would make a question about something the reach holds look unfamiliar. The query's
 * <i>coverage</i> is the weight of its words the reach holds over the weight of all its words; a
 * query with no weighty word at all (all its words common in the reach) is covered. "Closely" is a
 * best own relevance of at least {@link #CLOSE}; the cut applies under it when the coverage is
 * under {@link #MIN_COVERAGE} and the query names no one and nothing the reach knows ({@link
 * UnknownNames#namesSomethingKnown}), in a reach of at least {@link #MIN_MEMORIES} memories.
 *
 * <p>Why: a question about something the user never talked about ("How do I bake sourdough bread?")
 * finds memories that share its meaning loosely, or its common words, and the calibrated relevance
 * of those can reach the off-topic cut's bound; what gives it away is that its own rare words are
 * nowhere in the store. A question that names someone the store knows ("What would Caroline's
 * political leaning likely be?") is about them even when its other words are absent: their memories
 * answer it by inference, and on verbatim turns, whose best relevance is lower than extracted
 * facts', the rule without this exception cost real questions 0.056 of their evidence
 * (docs/benchmarks/log.md, "Landing issue 34's branches together"). The document frequencies are
 * counted within the search's tenant, scope and filter ({@link SearchIndex#termCounts}), not over
 * the whole index, so another user's memories do not make a word familiar. An index that does not
 * count them leaves the step to its other rules.
 */
final class UnfamiliarQuery {
  /**
   * The best own relevance at which a query is kept whatever its coverage, the names rule's ({@link
   * UnknownNames#CLOSE}, 0.7): a memory that close is likely about the query even in words the
   * query does not use. Measured on both samples' verbatim turns and extracted facts
   * (docs/benchmarks/log.md, "Off-topic on verbatim turns"): 0.8 emptied 1-2 points more of the
   * general questions and cost LoCoMo's real questions 0.009 of their evidence, against 0.004.
   */
  static final double CLOSE = UnknownNames.CLOSE;

  /**
   * The coverage under which a query without a close memory, naming nothing the reach knows, is
   * about something else. Measured on both samples (docs/benchmarks/log.md, "Off-topic on verbatim
   * turns"): 0.6 left 8% of the general questions on BEAM's verbatim turns, 0.75 4%, at no cost in
   * the real questions' evidence either way (their own words are in their store).
   */
  static final double MIN_COVERAGE = 0.75;

  /**
   * The fewest memories in the reach for the rule to apply. In a small store most ordinary words
   * are absent, so an absent word says little: in {@code engram demo}'s 17 memories "own", "plans"
   * and "goes" are in none, and the rule emptied three of its five questions. The samples' stores
   * hold several hundred memories each.
   */
  static final int MIN_MEMORIES = 100;

  /** Total weight under which a query has no informative word and counts as covered. */
  private static final double NO_WEIGHT = 1e-9;

  private UnfamiliarQuery() {}

  /**
   * True if the search should return nothing: {@code queryRelevance} is under {@link #CLOSE}, the
   * coverage of {@code subjectWords} (the query's words about its subject, {@link
   * dev.engram.analysis.QueryAnalyzer#subjectWords}) in the reach of {@code q} is under {@link
   * #MIN_COVERAGE}, and {@code namesSomethingKnown} (asked last, as it may look names up in the
   * index) is false.
   */
  static boolean cut(
      SearchIndex index,
      IndexQuery q,
      String subjectWords,
      double queryRelevance,
      BooleanSupplier namesSomethingKnown) {
    if (queryRelevance >= CLOSE) {
      return false;
    }
    return coverage(index, q, subjectWords).orElse(1.0) < MIN_COVERAGE
        && !namesSomethingKnown.getAsBoolean();
  }

  /**
   * The weight of the words of {@code subjectWords} that some memory in the reach of {@code q}
   * holds over the weight of all of them (see the class comment); empty if the index does not count
   * document frequencies, the query has no word about its subject, or the reach holds fewer than
   * {@link #MIN_MEMORIES} memories.
   */
  static Optional<Double> coverage(SearchIndex index, IndexQuery q, String subjectWords) {
    if (subjectWords.isBlank()) {
      return Optional.empty();
    }
    Optional<TermCounts> text = index.termCounts(q, IndexField.TEXT, subjectWords);
    if (text.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Integer> context =
        index
            .termCounts(q, IndexField.CONTEXT, subjectWords)
            .map(TermCounts::frequencies)
            .orElse(Map.of());
    int n = text.get().memories();
    if (n < MIN_MEMORIES) {
      return Optional.empty();
    }
    double all = 0;
    double held = 0;
    for (Map.Entry<String, Integer> e : text.get().frequencies().entrySet()) {
      int df = Math.max(e.getValue(), context.getOrDefault(e.getKey(), 0));
      double weight = Math.log((n + 1.0) / (df + 1.0));
      all += weight;
      if (df > 0) {
        held += weight;
      }
    }
    return Optional.of(all < NO_WEIGHT ? 1.0 : held / all);
  }
}

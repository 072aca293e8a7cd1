package dev.engram.spi;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The rule every {@link SearchIndex} applies to a keyword search ({@link SearchIndex#keyword} over
 * either {@link IndexField}): a term that more than {@value #COMMON_SHARE} of the searched
 * memories, and at least {@value #MIN_COMMON_FREQUENCY} of them, contain (in the field searched) is
 * <i>common</i>, and a memory that matches only common terms is no keyword match. Common terms
 * still add to the score of a memory that also matches another term of the query. A query all of
 * whose terms are common searches them all as before, and so does any query over fewer than {@value
 * #MIN_MEMORIES} memories.
 *
 * <p>Why: in a user's memories the user's own name, or the topic they talk about most, is in a
 * large share of the texts, so it says almost nothing about which memory a question is about. BM25
 * gives such a term a low weight, but the fusion reads ranks, not scores, and a list of keyword
 * matches filled with short memories that share only the name ranks them as high as matches of the
 * question's own words. This is the idea of Lucene's {@code CommonTermsQuery}, measured within the
 * memories a search may return (its tenant, scope and filter), not over the whole index, where one
 * user's name is rare. docs/BENCHMARKS.md gives the ablation.
 *
 * <p>Each index counts the frequencies its own way; this class holds the one decision made from
 * them.
 */
public final class CommonTerms {
  /** A term in more than this share of the searched memories is common. */
  public static final double COMMON_SHARE = 0.1;

  /** Over fewer memories than this, no term counts as common. */
  public static final int MIN_MEMORIES = 10;

  /**
   * A term fewer memories than this contain is never common. From {@value #MIN_MEMORIES} to 29
   * memories this, not the share, decides (a term in 2 of 15 memories is not common; the user's
   * name in 10 of 17 is, as in {@code engram demo}, where before it ranked every short memory
   * naming Maya above the one that answers "Where does Maya live?"); from 30 memories on the share
   * decides alone, as it did from 20 before.
   */
  public static final int MIN_COMMON_FREQUENCY = 3;

  private CommonTerms() {}

  /**
   * The terms a keyword match must contain one of, or empty if any query term will do.
   *
   * @param documentFrequencies each distinct query term with the number of searched memories
   *     containing it
   * @param memories how many memories the search may return (its tenant, scope and filter)
   * @return the query's terms that are not common, in the given order, when the query has both
   *     common terms and others; else empty (no term is common, every term is, or there are too few
   *     memories to tell)
   */
  public static Optional<Set<String>> required(
      Map<String, Integer> documentFrequencies, int memories) {
    Objects.requireNonNull(documentFrequencies, "documentFrequencies");
    if (!applies(memories)) {
      return Optional.empty();
    }
    Set<String> rare = new LinkedHashSet<>();
    for (Map.Entry<String, Integer> e : documentFrequencies.entrySet()) {
      if (!isCommon(e.getValue(), memories)) {
        rare.add(e.getKey());
      }
    }
    boolean someCommon = rare.size() < documentFrequencies.size();
    return someCommon && !rare.isEmpty()
        ? Optional.of(Collections.unmodifiableSet(rare))
        : Optional.empty();
  }

  /**
   * True if a search over {@code memories} memories can have common terms; when false, an index
   * need not count the terms' frequencies at all.
   */
  public static boolean applies(int memories) {
    return memories >= MIN_MEMORIES;
  }

  /** True if a term that {@code frequency} of {@code memories} memories contain is common. */
  public static boolean isCommon(int frequency, int memories) {
    return applies(memories)
        && frequency >= MIN_COMMON_FREQUENCY
        && frequency > COMMON_SHARE * memories;
  }
}

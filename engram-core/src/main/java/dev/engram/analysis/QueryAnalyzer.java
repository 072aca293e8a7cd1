package dev.engram.analysis;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * The language of a search's query, as Lucene's {@code Analyzer} holds the language of a field:
 * which words only make it a question, which names it gives, which periods it names. The engine
 * holds no word lists of its own; it asks its analyzer: the keyword signal searches {@link
 * #keywords}, the ranking step names looks for {@link #names} in what the store holds ({@link
 * #mentions}), the ranking step dates searches the memories of {@link #periods}. {@link #english()}
 * is the default. Implementations are stateless and thread-safe.
 */
public interface QueryAnalyzer {
  /** A half-open interval of event time, {@code [start, end)}. */
  record Period(Instant start, Instant end) {}

  /**
   * The query without the words that only make it a question, the rest of its text as it was; the
   * query itself if nothing else is left, so that such a query still searches by its words.
   */
  String keywords(String query);

  /**
   * The names the query gives (of people, places, things), lower-cased, distinct, in order of
   * appearance.
   */
  List<String> names(String query);

  /**
   * True if {@code name} (one word, as {@link #names} gives it) is a word of {@code text}, ignoring
   * case.
   */
  boolean mentions(String text, String name);

  /**
   * The periods of event time the query names, relative ones ("yesterday") against {@code clock}
   * and in its zone.
   */
  List<Period> periods(String query, Clock clock);

  /** The English analyzer, the default ({@link EnglishQueryAnalyzer}). */
  static QueryAnalyzer english() {
    return EnglishQueryAnalyzer.INSTANCE;
  }
}

package dev.engram.analysis;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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
   * The words of the query about its subject, the words a memory could hold: {@link #keywords}
   * without those that speak of the conversation itself or of the answer's form ("What did I
   * mention in our conversations? List the items in order"), which a memory, stating what was said,
   * seldom holds whatever its subject. Empty if no such word is left. The rarity rule of the
   * ranking step {@link dev.engram.Ranking#NAMES names} reads these. The default: {@link
   * #keywords}.
   */
  default String subjectWords(String query) {
    return keywords(query);
  }

  /**
   * The names the query gives (of people, places, things), lower-cased, distinct, in order of
   * appearance.
   */
  List<String> names(String query);

  /**
   * Those of {@link #names} that the query writes as names and not only in capitals throughout: a
   * word in capitals may be a name (an acronym) or emphasis ("Mention ONLY three items"), and an
   * emphasised word is as common as any other, so it does not show what a query is about. The
   * default: every name.
   */
  default List<String> namesNotInCapitals(String query) {
    return names(query);
  }

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

  /**
   * The query's content words, as stems: the words a memory that answers the query is likely to
   * hold (not the words that make it a question, nor pronouns, articles or prepositions), each cut
   * to a stem its inflected forms begin with ("pets" and "pet" to "pet"), lower-cased, distinct, in
   * order. The calibrated relevance reads the share of them a memory holds ({@link #share}). The
   * default: the query's words of three letters or more, lower-cased, whole.
   */
  default List<String> contentWords(String query) {
    Set<String> out = new LinkedHashSet<>();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("[\\p{L}\\p{N}]{3,}")
            .matcher(query.toLowerCase(Locale.ROOT));
    while (m.find()) {
      out.add(m.group());
    }
    return new ArrayList<>(out);
  }

  /**
   * The share, in [0, 1], of {@code stems} ({@link #contentWords}) that begin a word of {@code
   * text}, ignoring case; 0 for no stems. One lower-casing of the text and one scan per stem: no
   * tokenising, so it costs little on long memories.
   */
  static double share(List<String> stems, String text) {
    if (stems.isEmpty() || text.isEmpty()) {
      return 0.0;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    int held = 0;
    for (String stem : stems) {
      int at = lower.indexOf(stem);
      while (at >= 0 && at > 0 && Character.isLetterOrDigit(lower.charAt(at - 1))) {
        at = lower.indexOf(stem, at + 1);
      }
      if (at >= 0) {
        held++;
      }
    }
    return (double) held / stems.size();
  }

  /** The English analyzer, the default ({@link EnglishQueryAnalyzer}). */
  static QueryAnalyzer english() {
    return EnglishQueryAnalyzer.INSTANCE;
  }
}

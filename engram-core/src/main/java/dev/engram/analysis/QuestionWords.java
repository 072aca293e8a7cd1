package dev.engram.analysis;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The English words that make a statement a question, left out of a search's keyword query ({@link
 * QueryAnalyzer#keywords}): the interrogatives (what, which, who, whom, whose, when, where, why,
 * how) and the auxiliary and modal verbs (the forms of be, have and do; can, could, may, might,
 * must, shall, should, will, would, ought). A memory states an answer ("Melanie painted a lake
 * sunrise"), so "When did Melanie paint a sunrise?" looks for "Melanie paint a sunrise"; without
 * this, BM25 favours short memories that share only "what" and "do" with the question ("Melanie
 * will start thinking about what we can do"). PostgreSQL's {@code english} text search already
 * drops most of these words as stop words; Lucene's English analyzer drops only a few (is, are,
 * was, be, will) and the in-memory index none. A capitalised word inside a sentence is a name and
 * stays ("in May", "Will's car"), unless it is all in capitals ("WHAT DID").
 */
final class QuestionWords {
  /** A word, with an apostrophe inside it ("what's", "didn't"). */
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?");

  static final Set<String> WORDS =
      Set.of(
          "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "what's", "who's",
          "where's", "when's", "why's", "how's", "be", "am", "is", "are", "was", "were", "been",
          "being", "have", "has", "had", "having", "do", "does", "did", "doing", "can", "could",
          "may", "might", "must", "shall", "should", "will", "would", "ought");

  private QuestionWords() {}

  /**
   * The query without its question words, the rest of its text as it was; the query itself if
   * nothing but question words (and punctuation) is left, so that such a query still searches by
   * its words.
   */
  static String strip(String query) {
    return without(query, WORDS).orElse(query);
  }

  /**
   * {@code text} without the words of {@code words} (lower-case; a curly apostrophe read as a
   * straight one), the rest as it was; empty if no other word is left. A word written as a name
   * ({@link QueryNames#isName}) and not all in capitals stays ("in May", "Will's car", not "WHAT
   * DID").
   */
  static Optional<String> without(String text, Set<String> words) {
    StringBuilder out = new StringBuilder(text.length());
    boolean kept = false;
    int from = 0;
    Matcher m = WORD.matcher(text);
    while (m.find()) {
      String word = m.group();
      if (words.contains(word.replace('’', '\'').toLowerCase(Locale.ROOT))
          && !asName(text, m.start(), word)) {
        out.append(text, from, m.start());
        from = m.end();
      } else {
        kept = true;
      }
    }
    if (!kept) {
      return Optional.empty();
    }
    return Optional.of(out.append(text, from, text.length()).toString());
  }

  /**
   * True for a word written as a name ({@link QueryNames#isName}) that is not all in capitals
   * ("May", not "DID").
   */
  private static boolean asName(String query, int at, String word) {
    return QueryNames.isName(query, at) && !word.equals(word.toUpperCase(Locale.ROOT));
  }
}

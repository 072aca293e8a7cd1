package dev.engram.analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The content words of an English query, as stems ({@link QueryAnalyzer#contentWords}): its words
 * without the question words ({@link QuestionWords}), pronouns, articles, prepositions,
 * conjunctions and a few verbs of asking ("tell", "know"), nor "user" and "assistant", which name
 * the parties of an agent's memory rather than what a memory holds ("what pet does the user
 * have?"). Each word is cut to a stem its inflected forms begin with by dropping one common ending
 * (plural -s and -es after s, x, z, ch or sh, -ies, -ed, -ing, possessive 's) where at least three
 * letters stay, and a consonant doubled by -ing or -ed: "pets" and "pet" give "pet", "adopted"
 * gives "adopt", "running" gives "run", "cities" gives "cit".
 */
final class ContentWords {
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:['’][\\p{L}]+)?");

  private static final Set<String> STOP =
      Set.of(
          "a",
          "an",
          "the",
          "and",
          "or",
          "but",
          "if",
          "of",
          "to",
          "in",
          "on",
          "at",
          "by",
          "for",
          "with",
          "about",
          "from",
          "into",
          "onto",
          "over",
          "under",
          "after",
          "before",
          "as",
          "than",
          "then",
          "that",
          "this",
          "these",
          "those",
          "there",
          "here",
          "it",
          "its",
          "it's",
          "i",
          "me",
          "my",
          "mine",
          "we",
          "us",
          "our",
          "you",
          "your",
          "he",
          "him",
          "his",
          "she",
          "her",
          "they",
          "them",
          "their",
          "not",
          "no",
          "any",
          "some",
          "all",
          "so",
          "too",
          "very",
          "just",
          "also",
          "up",
          "out",
          "ever",
          "one",
          "ones",
          "get",
          "got",
          "tell",
          "know",
          "user",
          "assistant",
          "there's",
          "i'm",
          "i've",
          "don't",
          "didn't",
          "doesn't");

  private ContentWords() {}

  static List<String> of(String query) {
    Set<String> out = new LinkedHashSet<>();
    Matcher m = WORD.matcher(query);
    while (m.find()) {
      String w = m.group().replace('’', '\'').toLowerCase(Locale.ROOT);
      if (STOP.contains(w) || QuestionWords.WORDS.contains(w)) {
        continue;
      }
      out.add(stem(w));
    }
    return new ArrayList<>(out);
  }

  /**
   * A stem left by -ing or -ed without the doubled consonant the ending brought ("runn" from
   * "running" to "run", "stopp" to "stop"), except l, s and z, which stems double themselves
   * ("fall", "pass").
   */
  private static String undoubled(String stem, String ending) {
    int n = stem.length();
    if ((ending.equals("ing") || ending.equals("ed"))
        && n >= 4
        && stem.charAt(n - 1) == stem.charAt(n - 2)
        && "bdfgkmnprt".indexOf(stem.charAt(n - 1)) >= 0) {
      return stem.substring(0, n - 1);
    }
    return stem;
  }

  /** The word without one common ending, if at least three letters stay. */
  static String stem(String word) {
    String w = word.endsWith("'s") ? word.substring(0, word.length() - 2) : word;
    for (String ending : new String[] {"ies", "ing", "ed", "es", "s"}) {
      if (w.endsWith(ending) && w.length() - ending.length() >= 3) {
        if (ending.equals("es") && !w.matches(".*(s|x|z|ch|sh)es")) {
          continue;
        }
        if (ending.equals("s") && w.endsWith("ss")) {
          return w;
        }
        return undoubled(w.substring(0, w.length() - ending.length()), ending);
      }
    }
    return w;
  }
}

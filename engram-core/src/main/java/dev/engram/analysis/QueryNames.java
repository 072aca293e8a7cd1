package dev.engram.analysis;

import java.time.DayOfWeek;
import java.time.Month;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The names a query mentions: its capitalised words that do not open a sentence ("What did
 * <b>Caroline</b> say about <b>Paris</b>?"), lower-cased, without months, weekdays, titles and
 * pronouns. A word that opens a sentence is left out because its capital says nothing ("Describe",
 * "Where"), so a query written in lower case names nothing. The names of {@link
 * EnglishQueryAnalyzer}, for the ranking step {@link dev.engram.Ranking#NAMES names}.
 */
final class QueryNames {
  /**
   * A word: letters and digits, so "Jean-Luc" is two words and "Caroline's" is "Caroline" and "s".
   */
  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

  /**
   * Capitalised words that are not names: the months and weekdays (from {@code java.time}) and
   * titles.
   */
  private static final Set<String> NOT_NAMES =
      Stream.of(
              Stream.of(Month.values()).map(Enum::name),
              Stream.of(DayOfWeek.values()).map(Enum::name),
              Stream.of("mr", "mrs", "ms", "dr", "st"))
          .flatMap(words -> words)
          .map(w -> w.toLowerCase(Locale.ROOT))
          .collect(Collectors.toUnmodifiableSet());

  private QueryNames() {}

  /** The names of {@code query}, lower-cased, distinct, in order of appearance. */
  static List<String> of(String query) {
    return names(query, true);
  }

  /**
   * The names of {@code query} ({@link #of}) that it writes at least once other than in capitals
   * throughout: "API" and "ONLY" are left out, "Caroline", "GPT4" and "LGBTQ" beside "Lgbtq" kept.
   */
  static List<String> notInCapitals(String query) {
    return names(query, false);
  }

  private static List<String> names(String query, boolean capitalsThroughout) {
    Set<String> names = new LinkedHashSet<>();
    Matcher m = WORD.matcher(query);
    while (m.find()) {
      String word = m.group();
      if (word.length() < 2
          || !isName(query, m.start())
          || (!capitalsThroughout && inCapitals(word))) {
        continue;
      }
      String lower = word.toLowerCase(Locale.ROOT);
      if (!NOT_NAMES.contains(lower)) {
        names.add(lower);
      }
    }
    return List.copyOf(names);
  }

  /** True if every character of {@code word} is a letter in upper case. */
  private static boolean inCapitals(String word) {
    return word.codePoints().allMatch(Character::isUpperCase);
  }

  /**
   * True if {@code name} (one word, as {@link #of} gives it) is a word of {@code text}, ignoring
   * case: found where neither the character before nor the one after is a letter or digit, as
   * {@link #of} splits words.
   */
  static boolean mentions(String text, String name) {
    int n = name.length();
    for (int i = 0; i + n <= text.length(); i++) {
      if (text.regionMatches(true, i, name, 0, n)
          && !wordChar(text, i - 1)
          && !wordChar(text, i + n)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True if the word at {@code at} of {@code text} is written as a name: capitalised and not the
   * first word of a sentence (whose capital says nothing). Months and titles are written as names
   * too; {@link #of} leaves them out.
   */
  static boolean isName(String text, int at) {
    return Character.isUpperCase(text.codePointAt(at)) && !opensSentence(text, at);
  }

  private static boolean wordChar(String text, int at) {
    return at >= 0 && at < text.length() && Character.isLetterOrDigit(text.charAt(at));
  }

  /**
   * True if only spaces, quotes or brackets stand between the word at {@code at} and a sentence's
   * end or the start.
   */
  private static boolean opensSentence(String text, int at) {
    for (int i = at - 1; i >= 0; i--) {
      char c = text.charAt(i);
      if (c == '.' || c == '!' || c == '?' || c == '\n') {
        return true;
      }
      if (!Character.isWhitespace(c) && "\"'“”‘’([{*-".indexOf(c) < 0) {
        return false;
      }
    }
    return true;
  }
}

package dev.engram.bench.answer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An approximation of NLTK's {@code word_tokenize} for English (NLTK 3.8/3.9, the versions current
 * when the Mem0 harness computed BLEU-1): Punkt sentence splitting followed by NLTK's improved
 * Treebank word tokenizer, rule for rule (quotes, punctuation, the final period of each sentence,
 * brackets, double dashes, clitics such as {@code n't}, {@code 's}, {@code 'll}, and the MacIntyre
 * contractions {@code cannot}, {@code gonna}, ...).
 *
 * <p>Where it may differ from NLTK:
 *
 * <ul>
 *   <li>Sentence splitting. Punkt uses a trained English model (abbreviation list, collocations,
 *       orthographic statistics). Here a period followed by whitespace ends a sentence unless the
 *       word before it is in a short built-in abbreviation list, or is a single letter or a number
 *       followed by a word in lower case or by {@code ; : , . ! ?} (what Punkt's orthographic
 *       heuristic decides on lower-cased text). Rare abbreviations that Punkt knows ("approx.",
 *       "dept.", ...) end a sentence here, so their period becomes a token of its own.
 *   <li>Regular-expression classes: Java's Unicode classes ({@code \w}, {@code \s}, {@code \b}) and
 *       Python's agree for letters, digits and ordinary whitespace but may differ for rare code
 *       points.
 *   <li>The opening single quote rule is the 3.9 one (a quote is split off only before a one-letter
 *       word); NLTK changed it in 2026.
 * </ul>
 *
 * Thread-safe (stateless).
 */
final class WordTokenizer {
  private static final int U = Pattern.UNICODE_CHARACTER_CLASS;

  /** A rule: a pattern and its replacement (Java syntax: {@code $1}, {@code $0}). */
  private record Rule(Pattern pattern, String replacement) {
    static Rule of(String regex, String replacement) {
      return new Rule(Pattern.compile(regex, U), replacement);
    }

    String apply(String text) {
      return pattern.matcher(text).replaceAll(replacement);
    }
  }

  private static final List<Rule> STARTING_QUOTES =
      List.of(
          Rule.of("([«“‘„]|`+)", " $1 "),
          Rule.of("^\"", "``"),
          Rule.of("(``)", " $1 "),
          Rule.of("([ (\\[{<])(\"|'{2})", "$1 `` "),
          Rule.of("(?i)(')(?!re|ve|ll|m|t|s|d|n)(\\w)\\b", "$1 $2"));

  private static final List<Rule> PUNCTUATION =
      List.of(
          Rule.of("([^.])(\\.)([\\])}>\"'»”’ ]*)\\s*$", "$1 $2 $3 "),
          Rule.of("([:,])([^\\d])", " $1 $2"),
          Rule.of("([:,])$", " $1 "),
          Rule.of("\\.{2,}", " $0 "),
          Rule.of("[;@#$%&]", " $0 "),
          Rule.of("([^.])(\\.)([\\])}>\"']*)\\s*$", "$1 $2$3 "),
          Rule.of("[?!]", " $0 "),
          Rule.of("([^'])' ", "$1 ' "),
          Rule.of("[*]", " $0 "),
          Rule.of("[\\]\\[(){}<>]", " $0 "),
          Rule.of("--", " -- "));

  private static final List<Rule> ENDING_QUOTES =
      List.of(
          Rule.of("([»”’])", " $1 "),
          Rule.of("''", " '' "),
          Rule.of("\"", " '' "),
          Rule.of("\\s+", " "),
          Rule.of("([^' ])('[sS]|'[mM]|'[dD]|') ", "$1 $2 "),
          Rule.of("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) ", "$1 $2 "));

  private static final List<Rule> CONTRACTIONS =
      List.of(
          Rule.of("(?i)\\b(can)(not)\\b", " $1 $2 "),
          Rule.of("(?i)\\b(d)('ye)\\b", " $1 $2 "),
          Rule.of("(?i)\\b(gim)(me)\\b", " $1 $2 "),
          Rule.of("(?i)\\b(gon)(na)\\b", " $1 $2 "),
          Rule.of("(?i)\\b(got)(ta)\\b", " $1 $2 "),
          Rule.of("(?i)\\b(lem)(me)\\b", " $1 $2 "),
          Rule.of("(?i)\\b(more)('n)\\b", " $1 $2 "),
          Rule.of("(?i)\\b(wan)(na)(?=\\s)", " $1 $2 "),
          Rule.of("(?i) ('t)(is)\\b", " $1 $2 "),
          Rule.of("(?i) ('t)(was)\\b", " $1 $2 "));

  /**
   * Abbreviations after which a period does not end a sentence (lower case, without the final
   * period).
   */
  private static final Set<String> ABBREVIATIONS =
      Set.of(
          "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "vs", "etc", "e.g", "i.e", "u.s",
          "u.k", "a.m", "p.m", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept",
          "oct", "nov", "dec", "inc", "corp", "co", "ltd", "mt", "ft", "vol", "gen", "gov", "sen",
          "rep", "rev", "lt", "col", "capt");

  private static final Pattern SPACE = Pattern.compile("\\s+", U);
  private static final Pattern WORD_END = Pattern.compile("(\\S+)\\s+(?=\\S)", U);
  private static final Pattern NUMBER = Pattern.compile("-?[.,]?\\d[\\d,.-]*\\.?", U);
  private static final Pattern INITIAL = Pattern.compile("[^\\W\\d]\\.", U);
  private static final Pattern LEADING_PUNCT = Pattern.compile("^[(\"`{\\[:;&#*@)}\\]\\-,']+");

  private WordTokenizer() {}

  /**
   * The tokens of {@code text} after lower-casing it, as {@code nltk.word_tokenize(text.lower())}.
   */
  static List<String> tokenizeLowercased(String text) {
    return tokenize(text.toLowerCase(Locale.ROOT));
  }

  /**
   * The tokens of {@code text} as {@code nltk.word_tokenize(text)} gives them (approximately, see
   * above).
   */
  static List<String> tokenize(String text) {
    List<String> tokens = new ArrayList<>();
    for (String sentence : sentences(text)) {
      tokens.addAll(words(sentence));
    }
    return tokens;
  }

  /** Splits text into sentences the way Punkt does on lower-cased English text (approximately). */
  static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = WORD_END.matcher(text);
    int start = 0;
    while (m.find()) {
      String word = m.group(1);
      String next = nextToken(text, m.end());
      if (endsSentence(word, next)) {
        out.add(text.substring(start, m.start(1) + word.length()));
        start = m.end();
      }
    }
    String rest = text.substring(start).stripTrailing();
    if (!rest.isBlank()) {
      out.add(rest);
    }
    return out;
  }

  private static String nextToken(String text, int from) {
    int end = from;
    while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
      end++;
    }
    return text.substring(from, end);
  }

  private static boolean endsSentence(String word, String next) {
    if (word.endsWith("?") || word.endsWith("!")) {
      return true;
    }
    if (!word.endsWith(".") || word.endsWith("..")) {
      return false;
    }
    String token = LEADING_PUNCT.matcher(word).replaceFirst("");
    String stem = token.substring(0, Math.max(0, token.length() - 1)).toLowerCase(Locale.ROOT);
    if (ABBREVIATIONS.contains(stem)
        || ABBREVIATIONS.contains(stem.substring(stem.lastIndexOf('-') + 1))) {
      return false;
    }
    if (INITIAL.matcher(token).matches() || NUMBER.matcher(token).matches()) {
      boolean nextLower = !next.isEmpty() && Character.isLowerCase(next.codePointAt(0));
      boolean nextPunct = !next.isEmpty() && ";:,.!?".indexOf(next.charAt(0)) >= 0;
      return !(nextLower || nextPunct);
    }
    return true;
  }

  /** NLTK's improved Treebank tokenizer on one sentence. */
  static List<String> words(String sentence) {
    String text = sentence;
    for (Rule r : STARTING_QUOTES) {
      text = r.apply(text);
    }
    for (Rule r : PUNCTUATION) {
      text = r.apply(text);
    }
    text = " " + text + " ";
    for (Rule r : ENDING_QUOTES) {
      text = r.apply(text);
    }
    for (Rule r : CONTRACTIONS) {
      text = r.apply(text);
    }
    String trimmed = text.strip();
    return trimmed.isEmpty() ? List.of() : List.of(SPACE.split(trimmed));
  }
}

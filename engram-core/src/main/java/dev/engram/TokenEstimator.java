package dev.engram;

import java.util.Objects;

/**
 * A token estimate that needs no tokenizer: {@link TokenCounter#estimate()}, which a context budget
 * (search's {@code maxTokens}, the LangChain4j retriever, the Spring AI advisor) uses instead of
 * the default exact cl100k count when an engine is built with it ({@code
 * Engram.Builder.tokenCounter}). It does not depend on the model: ASCII text counts one token per
 * four characters, and every other character by its script, as OpenAI's cl100k_base tokenizer
 * splits it (measured with jtokkit, docs/benchmarks/log.md, "Token estimate"):
 *
 * <ul>
 *   <li>Cyrillic: 0.6 tokens per character; Arabic and Hebrew: 0.8; Greek: 1.05;
 *   <li>Latin letters outside ASCII (accents), emoji, symbols and marks (Unicode scripts Latin,
 *       Common and Inherited): 1.75, since each splits the word it sits in;
 *   <li>every other script (Han, kana, Hangul, Devanagari, Thai, ...): 1.25.
 * </ul>
 *
 * The sum is rounded up; non-empty text is at least one token. On English chat turns it
 * overestimates more often than not (four characters per token, as before), so a budget is rarely
 * exceeded by much; on Chinese, Japanese, Korean, Russian, Greek, Arabic and Hindi texts it is
 * within a fifth of cl100k, where four characters per token counted a fifth to a half of the real
 * tokens.
 */
public final class TokenEstimator {
  /** ASCII characters per estimated token. */
  public static final int CHARS_PER_TOKEN = 4;

  /** The weights below are in twentieths of a token. */
  private static final int UNITS_PER_TOKEN = 20;

  private static final int ASCII_UNITS = UNITS_PER_TOKEN / CHARS_PER_TOKEN;
  private static final int CYRILLIC_UNITS = 12;
  private static final int ARABIC_OR_HEBREW_UNITS = 16;
  private static final int GREEK_UNITS = 21;
  private static final int LATIN_OR_SYMBOL_UNITS = 35;
  private static final int OTHER_SCRIPT_UNITS = 25;

  private TokenEstimator() {}

  /**
   * The estimated token count of {@code text}: {@code ceil(length / 4)} for ASCII text, see above
   * otherwise.
   */
  public static int estimate(String text) {
    Objects.requireNonNull(text, "text");
    long units = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      units += cp < 0x80 ? ASCII_UNITS : units(cp);
    }
    return (int) ((units + UNITS_PER_TOKEN - 1) / UNITS_PER_TOKEN);
  }

  private static int units(int codePoint) {
    return switch (Character.UnicodeScript.of(codePoint)) {
      case CYRILLIC -> CYRILLIC_UNITS;
      case ARABIC, HEBREW -> ARABIC_OR_HEBREW_UNITS;
      case GREEK -> GREEK_UNITS;
      case LATIN, COMMON, INHERITED, UNKNOWN -> LATIN_OR_SYMBOL_UNITS;
      default -> OTHER_SCRIPT_UNITS;
    };
  }
}

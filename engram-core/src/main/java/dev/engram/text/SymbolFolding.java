package dev.engram.text;

import java.util.Objects;

/**
 * A text as its words: every symbol read as a space, except the punctuation that prose needs. The
 * engine embeds the passages of a long message this way (pasted code, Markdown, logs, LaTeX): a
 * wordpiece tokenizer such as BERT's makes each symbol a piece of its own, and on BEAM's passages
 * 39% of the pieces were symbols ({@code * \ ( ) = ` # { }}...), which an in-process model embeds
 * at the cost of any word and which say little of what a question asks (docs/benchmarks/log.md,
 * "Symbols read as spaces in the passages of long messages").
 *
 * <p>Kept: letters, digits, combining marks and whitespace; a word's own punctuation ({@code
 * don't}, {@code 0.6.2}, {@code Flask-Login}: an apostrophe, a full stop or a hyphen between two
 * letters or digits; {@code C++}, {@code C#}, {@code 50%}: plus, hash and percent signs right after
 * one; {@code $20}: a dollar sign before a digit); a number's ({@code 1,000}, {@code 10:30}, {@code
 * 12/05}: a comma, colon or slash between two digits); a sentence's ({@code . , ? ! : ;} after a
 * letter or digit and before whitespace or the end); a dash or an ampersand between two spaces.
 * Everything else becomes a space. A text with no letter or digit is returned as it is.
 *
 * <p>Stateless and thread-safe.
 */
public final class SymbolFolding {
  private SymbolFolding() {}

  /** The text with its symbols read as spaces (above); the same text if it has none. */
  public static String fold(String text) {
    Objects.requireNonNull(text, "text");
    StringBuilder out = null; // null while nothing has changed
    boolean wordy = false;
    int lastKept = -1; // the code point kept last, or -1
    int n = text.length();
    for (int i = 0; i < n; ) {
      int c = text.codePointAt(i);
      int next = i + Character.charCount(c);
      boolean keep = kept(text, i, c, next, lastKept);
      wordy |= Character.isLetterOrDigit(c);
      lastKept = keep ? c : -1;
      if (!keep && out == null) {
        out = new StringBuilder(n).append(text, 0, i);
      }
      if (out != null) {
        if (keep) {
          out.appendCodePoint(c);
        } else {
          out.append(' ');
        }
      }
      i = next;
    }
    return out == null || !wordy ? text : out.toString();
  }

  /**
   * Whether the code point {@code c} at {@code i} (the next one at {@code next}) stays; {@code
   * lastKept} is the one before it if that one stayed, else -1.
   */
  private static boolean kept(String text, int i, int c, int next, int lastKept) {
    if (Character.isLetterOrDigit(c) || Character.isWhitespace(c) || isMark(c)) {
      return true;
    }
    int before = i > 0 ? text.codePointBefore(i) : -1;
    int after = next < text.length() ? text.codePointAt(next) : -1;
    boolean wordBefore = Character.isLetterOrDigit(before);
    switch (c) {
      case '\'', '\u2019', '.', '-' -> {
        if (wordBefore && Character.isLetterOrDigit(after)) {
          return true;
        }
      }
      case '+', '#', '%' -> {
        if (wordBefore || lastKept == c) {
          return true;
        }
      }
      case '$' -> {
        if (Character.isDigit(after)) {
          return true;
        }
      }
      case ',', ':', '/' -> {
        if (Character.isDigit(before) && Character.isDigit(after)) {
          return true;
        }
      }
      default -> {}
    }
    if (isSentencePunctuation(c) && wordBefore && (after == -1 || Character.isWhitespace(after))) {
      return true;
    }
    return (c == '-' || c == '\u2013' || c == '\u2014' || c == '&')
        && before == ' '
        && after == ' ';
  }

  private static boolean isSentencePunctuation(int c) {
    return c == '.' || c == ',' || c == '?' || c == '!' || c == ':' || c == ';';
  }

  private static boolean isMark(int c) {
    int type = Character.getType(c);
    return type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK
        || type == Character.ENCLOSING_MARK;
  }
}

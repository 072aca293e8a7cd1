package dev.engram.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Markdown's fenced code blocks: a line whose first non-blank characters are three or more
 * backticks or tildes opens one, and the first later line that holds at least as many of the same
 * mark and nothing else closes it (an unclosed block runs to the end of the text). {@link Passages}
 * keeps such a block whole where it can; the offline extractor keeps its lines as written.
 *
 * <p>Stateless and thread-safe.
 */
public final class CodeFences {
  private CodeFences() {}

  /** A run of a text: a fenced code block, fences included, or the text between two. */
  public record Segment(String text, boolean code) {
    public Segment {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * The text cut into its fenced code blocks and the runs of text between them, in order; the
   * segments together are the text, and none is empty.
   */
  public static List<Segment> segments(String text) {
    Objects.requireNonNull(text, "text");
    List<Segment> out = new ArrayList<>();
    int proseStart = 0;
    int line = 0;
    while (line < text.length()) {
      int end = lineEnd(text, line);
      int fence = opening(text, line, end);
      if (fence == 0) {
        line = next(text, end);
        continue;
      }
      char mark = text.charAt(line + indent(text, line, end));
      int close = next(text, end);
      while (close < text.length() && !closes(text, close, lineEnd(text, close), mark, fence)) {
        close = next(text, lineEnd(text, close));
      }
      int blockEnd = close < text.length() ? lineEnd(text, close) : text.length();
      if (line > proseStart) {
        out.add(new Segment(text.substring(proseStart, line), false));
      }
      out.add(new Segment(text.substring(line, blockEnd), true));
      proseStart = blockEnd;
      line = next(text, blockEnd);
    }
    if (proseStart < text.length()) {
      out.add(new Segment(text.substring(proseStart), false));
    }
    return List.copyOf(out);
  }

  /**
   * The length of the fence that opens the line {@code text[start, end)} ({@code ```} or {@code
   * ~~~}, three or more, after spaces and tabs), or 0 if it opens none.
   */
  public static int opening(CharSequence text, int start, int end) {
    int i = start + indent(text, start, end);
    if (i >= end || (text.charAt(i) != '`' && text.charAt(i) != '~')) {
      return 0;
    }
    int n = run(text, i, end, text.charAt(i));
    return n >= 3 ? n : 0;
  }

  /**
   * True if the line {@code text[start, end)} closes a block opened by {@code length} of {@code
   * mark}: at least that many of the mark after spaces and tabs, then only whitespace.
   */
  public static boolean closes(CharSequence text, int start, int end, char mark, int length) {
    int i = start + indent(text, start, end);
    int n = run(text, i, end, mark);
    if (n < length) {
      return false;
    }
    for (int k = i + n; k < end; k++) {
      if (!Character.isWhitespace(text.charAt(k))) {
        return false;
      }
    }
    return true;
  }

  /** The spaces and tabs that open the line {@code text[start, end)}. */
  static int indent(CharSequence text, int start, int end) {
    int i = start;
    while (i < end && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i - start;
  }

  private static int run(CharSequence text, int from, int end, char mark) {
    int n = 0;
    while (from + n < end && text.charAt(from + n) == mark) {
      n++;
    }
    return n;
  }

  /** The offset of the line break that ends the line starting at {@code start}, or the end. */
  private static int lineEnd(String text, int start) {
    int end = text.indexOf('\n', start);
    return end < 0 ? text.length() : end;
  }

  /** The offset after the line break at {@code lineEnd}. */
  private static int next(String text, int lineEnd) {
    return Math.min(text.length(), lineEnd + 1);
  }
}

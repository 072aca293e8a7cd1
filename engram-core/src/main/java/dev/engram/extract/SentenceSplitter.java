package dev.engram.extract;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Splits chat text into sentences. Line breaks always end a sentence; inside a line the JDK's
 * English sentence {@link BreakIterator} finds the candidates (it already keeps decimals such as
 * {@code 3.50}, runs such as {@code !!} or {@code ?!}, emoji and a missing final punctuation mark
 * right), and two repairs follow: a piece that ends with a title abbreviation ({@code Dr.}, {@code
 * Mr.}, {@code e.g.}...) or a single capital initial ({@code J.}) is joined to the next piece, and
 * so is a piece followed by one that starts in lower case, a piece cut inside a word ({@code ?q=}
 * in a link: no space after the mark), and a piece that leaves a brace or a TeX formula open
 * ({@code \frac{n!}{k!}}).
 *
 * <p>Stateless and thread-safe.
 */
final class SentenceSplitter {

  /** Abbreviations (lower case, without the final dot) after which a sentence never ends. */
  private static final Set<String> ABBREVIATIONS =
      Set.of(
          "dr", "mr", "mrs", "ms", "prof", "st", "mt", "vs", "e.g", "i.e", "approx", "fig", "sgt",
          "capt", "rev", "hon");

  private static final Pattern LINE_BREAK = Pattern.compile("\\R+");
  private static final Pattern LAST_TOKEN = Pattern.compile("(\\S+)\\.$");

  private SentenceSplitter() {}

  /** The sentences of {@code text}, trimmed, in order, never blank. */
  static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    for (String line : LINE_BREAK.split(text, -1)) {
      if (!line.isBlank()) {
        splitLine(line, out);
      }
    }
    return out;
  }

  private static void splitLine(String line, List<String> out) {
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ENGLISH);
    it.setText(line);
    StringBuilder pending = new StringBuilder();
    boolean glued = false;
    int start = it.first();
    for (int end = it.next(); end != BreakIterator.DONE; start = end, end = it.next()) {
      String piece = line.substring(start, end).trim();
      if (piece.isEmpty()) {
        continue;
      }
      if (pending.length() > 0
          && !glued
          && !startsLowerCase(piece)
          && !endsWithAbbreviation(pending.toString())
          && !insideGroup(pending)) {
        out.add(pending.toString());
        pending.setLength(0);
      }
      if (pending.length() > 0 && !glued) {
        pending.append(' ');
      }
      pending.append(piece);
      glued = end < line.length() && !Character.isWhitespace(line.charAt(end - 1));
    }
    if (pending.length() > 0) {
      out.add(pending.toString());
    }
  }

  /**
   * True if {@code text} leaves a brace or a TeX formula ({@code \(}, {@code \[}) open: a {@code !}
   * there is a factorial ({@code \frac{n!}{k!}}), not the end of a sentence.
   */
  private static boolean insideGroup(CharSequence text) {
    int braces = 0;
    int formulas = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '{') {
        braces++;
      } else if (c == '}') {
        braces = Math.max(0, braces - 1);
      } else if (c == '\\' && i + 1 < text.length()) {
        char next = text.charAt(i + 1);
        if (next == '(' || next == '[') {
          formulas++;
        } else if (next == ')' || next == ']') {
          formulas = Math.max(0, formulas - 1);
        }
        i++;
      }
    }
    return braces > 0 || formulas > 0;
  }

  private static boolean startsLowerCase(String piece) {
    int first = piece.codePointAt(0);
    return Character.isLowerCase(first);
  }

  /**
   * True if {@code piece} ends with a title abbreviation or a single capital initial and its dot.
   */
  static boolean endsWithAbbreviation(String piece) {
    var m = LAST_TOKEN.matcher(piece);
    if (!m.find()) {
      return false;
    }
    String token = m.group(1);
    int open = 0;
    while (open < token.length() && !Character.isLetter(token.charAt(open))) {
      open++;
    }
    token = token.substring(open);
    if (token.length() == 1 && Character.isUpperCase(token.charAt(0))) {
      return true;
    }
    return ABBREVIATIONS.contains(token.toLowerCase(Locale.ROOT));
  }
}

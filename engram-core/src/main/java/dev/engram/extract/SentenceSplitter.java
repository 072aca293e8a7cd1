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
 * so is a piece followed by one that starts in lower case or with an operator (a factorial in plain
 * text: {@code 5! / (3! × 2!) = 10}), a piece cut inside a word ({@code ?q=} in a link: no space
 * after the mark), and a piece that leaves a brace or a TeX formula open ({@code \frac{n!}{k!}})
 * for up to a thousand characters.
 *
 * <p>Stateless and thread-safe.
 */
final class SentenceSplitter {

  /** Abbreviations (lower case, without the final dot) after which a sentence never ends. */
  private static final Set<String> ABBREVIATIONS =
      Set.of(
          "dr", "mr", "mrs", "ms", "prof", "st", "mt", "vs", "e.g", "i.e", "approx", "fig", "sgt",
          "capt", "rev", "hon");

  /** Characters of a sentence's end that {@link #endsWithAbbreviation} reads. */
  private static final int TAIL = 64;

  /**
   * Marks that open no sentence but continue a formula after a factorial's {@code !}: "5! / 3!",
   * "4! × 2!", "3! = 6". A hyphen, an asterisk and angle brackets are left out: they open a list
   * item, a dash, Markdown's bold or a tag as often.
   */
  private static final String OPERATORS = "/×+=÷·^≤≥≠≈−";

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
    OpenGroups groups = new OpenGroups();
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
          && !startsWithOperator(piece)
          && !endsWithAbbreviation(tail(pending))
          && !groups.holdOpen(pending.length())) {
        out.add(pending.toString());
        pending.setLength(0);
        groups.clear();
      }
      if (pending.length() > 0 && !glued) {
        pending.append(' ');
      }
      pending.append(piece);
      groups.read(piece);
      glued = end < line.length() && !Character.isWhitespace(line.charAt(end - 1));
    }
    if (pending.length() > 0) {
      out.add(pending.toString());
    }
  }

  /**
   * The end of {@code pending} that holds its last token, if that token can be an abbreviation or
   * an initial (at most {@value #TAIL} characters): the check reads a bounded text however long the
   * sentence being built has grown.
   */
  private static String tail(StringBuilder pending) {
    return pending.substring(Math.max(0, pending.length() - TAIL));
  }

  /**
   * The braces and TeX formulas ({@code \(}, {@code \[}) that the sentence being built leaves open,
   * counted piece by piece: a {@code !} inside one is a factorial ({@code \frac{n!}{k!}}), not the
   * end of a sentence. A group holds a sentence open for at most {@value #LONGEST_GROUP}
   * characters: a formula is shorter, and a brace never closed (a smiley, code in prose) must not
   * make the rest of a long line one sentence.
   */
  private static final class OpenGroups {
    static final int LONGEST_GROUP = 1_000;

    private int braces;
    private int formulas;

    void read(String piece) {
      for (int i = 0; i < piece.length(); i++) {
        char c = piece.charAt(i);
        if (c == '{') {
          braces++;
        } else if (c == '}') {
          braces = Math.max(0, braces - 1);
        } else if (c == '\\' && i + 1 < piece.length()) {
          char next = piece.charAt(i + 1);
          if (next == '(' || next == '[') {
            formulas++;
          } else if (next == ')' || next == ']') {
            formulas = Math.max(0, formulas - 1);
          }
          i++;
        }
      }
    }

    /** True if a group is open in a sentence of {@code length} characters so far. */
    boolean holdOpen(int length) {
      return (braces > 0 || formulas > 0) && length < LONGEST_GROUP;
    }

    void clear() {
      braces = 0;
      formulas = 0;
    }
  }

  private static boolean startsLowerCase(String piece) {
    int first = piece.codePointAt(0);
    return Character.isLowerCase(first);
  }

  private static boolean startsWithOperator(String piece) {
    return OPERATORS.indexOf(piece.charAt(0)) >= 0;
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

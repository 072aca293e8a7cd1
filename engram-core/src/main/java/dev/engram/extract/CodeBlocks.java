package dev.engram.extract;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Separates a message's fenced code blocks (Markdown: a line opening with three or more backticks
 * or tildes, up to the next such line or the end of the text) from its prose. The offline extractor
 * reads prose sentence by sentence, but a code block is not made of sentences: each of its lines
 * would become a "fact" of its own ({@code return jsonify(result)}), so a technical answer turned
 * into dozens of fragments that crowd out the facts around them. A block is kept whole instead, as
 * said, fences included.
 *
 * <p>Stateless and thread-safe.
 */
final class CodeBlocks {

  private static final Pattern FENCE = Pattern.compile("^ {0,3}(?:```|~~~)");

  private CodeBlocks() {}

  /** A piece of a message: prose, or one fenced code block with its fences. */
  record Segment(String text, boolean code) {}

  /**
   * The prose and code blocks of {@code text}, in order; prose runs are joined by line breaks, an
   * unclosed fence runs to the end of the text, and blank segments are left out.
   */
  static List<Segment> split(String text) {
    List<Segment> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean inCode = false;
    for (String line : text.split("\\R", -1)) {
      boolean fence = FENCE.matcher(line).find();
      if (fence && !inCode) {
        flush(current, false, out);
        inCode = true;
        current.append(line).append('\n');
      } else if (fence) {
        current.append(line);
        flush(current, true, out);
        inCode = false;
      } else {
        current.append(line).append('\n');
      }
    }
    flush(current, inCode, out);
    return out;
  }

  private static void flush(StringBuilder current, boolean code, List<Segment> out) {
    String s = current.toString().strip();
    current.setLength(0);
    if (!s.isEmpty()) {
      out.add(new Segment(s, code));
    }
  }
}

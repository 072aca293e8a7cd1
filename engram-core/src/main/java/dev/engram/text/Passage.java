package dev.engram.text;

import java.util.Objects;

/**
 * One passage of a longer text: its {@code text} is exactly {@code original.substring(start, end)},
 * where offsets are {@code char} (UTF-16 code unit) offsets into the original text. A passage never
 * starts or ends with whitespace and never cuts a surrogate pair.
 *
 * @param start the offset of the passage's first character in the original text
 * @param end the offset just past its last character
 * @param text the passage's text, never blank
 */
public record Passage(int start, int end, String text) {
  public Passage {
    Objects.requireNonNull(text, "text");
    if (start < 0 || end < start) {
      throw new IllegalArgumentException(
          "a passage spans [start, end) with 0 <= start <= end, was [" + start + ", " + end + ")");
    }
    if (end - start != text.length()) {
      throw new IllegalArgumentException(
          "a passage's text has end - start = "
              + (end - start)
              + " characters, was "
              + text.length());
    }
  }

  /** The number of characters the passage spans in the original text. */
  public int length() {
    return end - start;
  }
}

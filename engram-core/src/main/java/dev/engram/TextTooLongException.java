package dev.engram;

/**
 * A text longer than the engine accepts ({@link Engram.Builder#maxTextLength}): bad input like any
 * {@link ValidationException}, with the length and the limit as numbers, so that a server can
 * answer it as a payload that is too large (HTTP 413) rather than as a malformed one.
 */
public final class TextTooLongException extends ValidationException {
  private final int length;
  private final int limit;

  public TextTooLongException(String field, int length, int limit) {
    super(field, "is " + length + " characters long; the limit is " + limit);
    this.length = length;
    this.limit = limit;
  }

  /** The length of the refused text, in characters (UTF-16 code units). */
  public int length() {
    return length;
  }

  /** The longest text accepted, in characters. */
  public int limit() {
    return limit;
  }

  /** The same error located inside a larger input, still a {@code TextTooLongException}. */
  @Override
  public TextTooLongException within(String path) {
    TextTooLongException e = new TextTooLongException(path + "." + field(), length, limit);
    e.initCause(this);
    return e;
  }
}

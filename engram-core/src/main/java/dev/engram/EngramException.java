package dev.engram;

/**
 * Root of Engram's unchecked exceptions. Every failure that crosses the public API is one of its
 * subclasses, so callers can tell bad input ({@link ValidationException}) from storage or provider
 * trouble.
 */
public class EngramException extends RuntimeException {
  public EngramException(String message) {
    super(message);
  }

  public EngramException(String message, Throwable cause) {
    super(message, cause);
  }
}

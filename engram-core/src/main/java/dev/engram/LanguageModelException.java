package dev.engram;

import java.util.Objects;

/**
 * A language model call failed. {@link #kind()} says how; {@link #retryable()} whether trying again
 * may help.
 */
public class LanguageModelException extends EngramException {
  /** How a call failed. */
  public enum Kind {
    /** HTTP 429 or a provider's rate-limit error. */
    RATE_LIMITED(true),
    /** HTTP 5xx or an overloaded provider. */
    SERVER_ERROR(true),
    /** No answer in time, or the connection failed. */
    TIMEOUT(true),
    /** Bad credentials: never retried. */
    AUTHENTICATION(false),
    /** The provider rejected the request (4xx other than 429). */
    BAD_REQUEST(false),
    /** The answer could not be used (not JSON, wrong shape). */
    INVALID_RESPONSE(false);

    private final boolean retryable;

    Kind(boolean retryable) {
      this.retryable = retryable;
    }

    public boolean retryable() {
      return retryable;
    }
  }

  private final Kind kind;

  public LanguageModelException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public LanguageModelException(Kind kind, String message) {
    this(kind, message, null);
  }

  public Kind kind() {
    return kind;
  }

  public boolean retryable() {
    return kind.retryable();
  }
}

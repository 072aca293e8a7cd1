package dev.engram;

import java.util.Objects;

/**
 * Bad input: the request was rejected before anything was written. The message names the field and
 * the value.
 */
public class ValidationException extends EngramException {
  private final String field;
  private final String reason;

  public ValidationException(String field, String message) {
    super(field + ": " + message);
    this.field = Objects.requireNonNull(field, "field");
    this.reason = message;
  }

  /** What was wrong with the field, without the field's name. */
  public String reason() {
    return reason;
  }

  /**
   * The same error located inside a larger input: the field becomes {@code path.field} (for example
   * {@code line 7.created_at}), the reason stays.
   */
  public ValidationException within(String path) {
    ValidationException e = new ValidationException(path + "." + field, reason);
    e.initCause(this);
    return e;
  }

  /** The request field that was rejected, for example {@code user_id} or {@code filters.age}. */
  public String field() {
    return field;
  }
}

package dev.engram;

import java.util.Objects;

/**
 * Bad input: the request was rejected before anything was written. The message names the field and the value.
 */
public class ValidationException extends EngramException {
  private final String field;

  public ValidationException(String field, String message) {
    super(field + ": " + message);
    this.field = Objects.requireNonNull(field, "field");
  }

  /** The request field that was rejected, for example {@code user_id} or {@code filters.age}. */
  public String field() {
    return field;
  }
}

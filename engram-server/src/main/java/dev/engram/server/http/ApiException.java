package dev.engram.server.http;

import java.util.Map;
import java.util.Objects;

/**
 * A request the server refuses, with its HTTP status and mem0's error body {@code {"error": ...,
 * "detail": ...}}. {@code detail} names the offending field where there is one.
 */
public final class ApiException extends RuntimeException {
  private final int status;
  private final String detail;
  private final Map<String, String> headers;

  public ApiException(int status, String error, String detail) {
    this(status, error, detail, Map.of());
  }

  public ApiException(int status, String error, String detail, Map<String, String> headers) {
    super(error);
    this.status = status;
    this.detail = Objects.requireNonNull(detail, "detail");
    this.headers = Map.copyOf(headers);
  }

  public int status() {
    return status;
  }

  public String detail() {
    return detail;
  }

  /** Extra response headers (for example {@code Retry-After}). */
  public Map<String, String> headers() {
    return headers;
  }

  public static ApiException badRequest(String field, String message) {
    return new ApiException(400, "invalid request: " + field + " " + message, field);
  }

  public static ApiException notFound(String what) {
    return new ApiException(404, what + " not found", what);
  }
}

package dev.engram.server.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.EngramException;
import dev.engram.LanguageModelException;
import dev.engram.MemoryNotFoundException;
import dev.engram.StorageException;
import dev.engram.TextTooLongException;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.http.HttpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a failure into mem0's JSON error body {@code {"error": ..., "detail": ...}} with the right
 * status: 400 bad input (detail names the field), 401/403 keys and roles, 404, 405, 413 (a body
 * over the server's limit, or a text over the engine's: detail names the field, {@code length} and
 * {@code limit} give the numbers), 415, 429, 502 when the model provider refused, 503 when it or
 * the storage is unavailable. Anything else is a bug: 500 with an error id, logged with its stack
 * trace.
 */
public final class ErrorReplies {
  private static final Logger LOG = LoggerFactory.getLogger(ErrorReplies.class);

  private ErrorReplies() {}

  /** The reply for a failure, with extra headers to set. */
  public record ErrorReply(int status, ObjectNode body, Map<String, String> headers) {}

  public static ErrorReply of(Throwable e, String requestId) {
    if (e instanceof ApiException a) {
      return reply(a.status(), a.getMessage(), a.detail(), a.headers());
    }
    if (e instanceof MemoryNotFoundException m) {
      return reply(404, m.getMessage(), "memory_id", Map.of());
    }
    if (e instanceof TextTooLongException t) {
      ErrorReply r = reply(413, "payload too large: " + t.getMessage(), t.field(), Map.of());
      r.body().put("length", t.length());
      r.body().put("limit", t.limit());
      return r;
    }
    if (e instanceof ValidationException v) {
      return reply(400, "invalid request: " + v.getMessage(), v.field(), Map.of());
    }
    if (e instanceof LanguageModelException l) {
      int status = l.retryable() ? 503 : 502;
      LOG.warn(
          "request {}: the language model failed ({}): {}", requestId, l.kind(), l.getMessage());
      return reply(
          status,
          "the language model provider failed ("
              + l.kind().name().toLowerCase(Locale.ROOT)
              + "): "
              + l.getMessage(),
          "model",
          l.retryable() ? Map.of("Retry-After", "5") : Map.of());
    }
    if (e instanceof StorageException s) {
      LOG.error("request {}: storage failure", requestId, s);
      return reply(
          503, "storage unavailable: " + s.getMessage(), "storage", Map.of("Retry-After", "5"));
    }
    if (e instanceof HttpException h) {
      return reply(h.getCode(), h.getReason(), "request", Map.of());
    }
    if (e instanceof EngramException x) {
      LOG.warn("request {}: {}", requestId, x.getMessage());
      return reply(400, x.getMessage(), "request", Map.of());
    }
    String errorId = RequestIds.next();
    LOG.error("request {}: internal error {}", requestId, errorId, e);
    ErrorReply r = reply(500, "internal error", "error id " + errorId, Map.of());
    r.body().put("error_id", errorId);
    return r;
  }

  public static ErrorReply reply(
      int status, String error, String detail, Map<String, String> headers) {
    ObjectNode body = MemoryJson.mapper().createObjectNode();
    body.put("error", error);
    body.put("detail", detail);
    return new ErrorReply(status, body, headers);
  }
}

package dev.engram.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.EngramException;
import dev.engram.LanguageModelException;
import dev.engram.MemoryNotFoundException;
import dev.engram.StorageException;
import dev.engram.TextTooLongException;
import dev.engram.ValidationException;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns the server's error replies ({@code {"error", "detail"}}, see the server's {@code
 * ErrorReplies}) back into the exceptions an embedded {@code Memory} throws: 400 is a {@link
 * ValidationException} naming the field given in {@code detail} (a plain {@link EngramException}
 * when the detail is {@code request}), 404 on {@code memory_id} a {@link MemoryNotFoundException},
 * 502/503 on {@code model} a {@link LanguageModelException} of the kind named in the error, 503 on
 * {@code storage} a {@link StorageException}, 409 on {@code graph} an {@link
 * IllegalStateException}, 413 with a {@code limit} (a text over the engine's limit) a {@link
 * TextTooLongException}; anything else a {@link RemoteCallException}.
 */
final class RemoteErrors {
  private static final String INVALID = "invalid request: ";

  private RemoteErrors() {}

  /**
   * The exception for a reply.
   *
   * @param memoryId the memory id the call named, for {@link MemoryNotFoundException}
   */
  static RuntimeException of(int status, JsonNode body, Optional<String> memoryId) {
    String error = body.path("error").asText("HTTP " + status);
    String detail = body.path("detail").asText("");
    if (status == 404 && detail.equals("memory_id")) {
      return new MemoryNotFoundException(memoryId.orElse("?"));
    }
    if (status == 400) {
      if (detail.isEmpty() || detail.equals("request")) {
        return new EngramException(error);
      }
      String message = error.startsWith(INVALID) ? error.substring(INVALID.length()) : error;
      if (message.startsWith(detail + ": ")) {
        message = message.substring(detail.length() + 2);
      } else if (message.startsWith(detail + " ")) {
        message = message.substring(detail.length() + 1);
      }
      return new ValidationException(detail, message);
    }
    if (status == 413 && body.path("limit").isInt() && body.path("length").isInt()) {
      return new TextTooLongException(
          detail, body.path("length").asInt(), body.path("limit").asInt());
    }
    if ((status == 502 || status == 503) && detail.equals("model")) {
      return new LanguageModelException(modelFailure(error, status), error);
    }
    if (status == 503 && detail.equals("storage")) {
      return new StorageException(error);
    }
    if (status == 409 && detail.equals("graph")) {
      return new IllegalStateException(error);
    }
    return new RemoteCallException(
        status,
        "the Engram server answered "
            + status
            + ": "
            + error
            + (detail.isEmpty() ? "" : " (" + detail + ")"));
  }

  /** The kind in {@code "the language model provider failed (rate_limited): ..."}. */
  private static LanguageModelException.Kind modelFailure(String error, int status) {
    int open = error.indexOf('(');
    int close = error.indexOf(')', open + 1);
    if (open >= 0 && close > open) {
      try {
        return LanguageModelException.Kind.valueOf(
            error.substring(open + 1, close).toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException unknown) {
        // fall through to the status
      }
    }
    return status == 503
        ? LanguageModelException.Kind.SERVER_ERROR
        : LanguageModelException.Kind.BAD_REQUEST;
  }
}

package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.LanguageModelException;
import dev.engram.LanguageModelException.Kind;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.List;

/**
 * Turns whatever a LangChain4j model throws into a {@link LanguageModelException} with a {@link
 * Kind}. The HTTP status wins when one is known; then LangChain4j's typed exceptions; then I/O
 * causes (timeouts, refused connections). Every message passes through {@link #redact} so that no
 * secret reaches a log.
 */
final class ModelErrors {
  /** Provider text kept in a message, at most. */
  static final int MAX_DETAIL = 300;

  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelErrors() {}

  /**
   * Maps one failure of a call to {@code modelId}; {@code secrets} are blanked out of every
   * message.
   */
  static LanguageModelException map(RuntimeException e, String modelId, List<String> secrets) {
    Integer status = statusOf(e);
    Kind kind = status != null ? kindOfStatus(status) : kindOfType(e);
    StringBuilder msg = new StringBuilder(modelId).append(": ").append(describe(kind));
    if (status != null) {
      msg.append(" (HTTP ").append(status).append(')');
    }
    String detail = detail(e, secrets);
    if (!detail.isEmpty()) {
      msg.append(": ").append(detail);
    }
    return new LanguageModelException(kind, msg.toString(), safeCause(e, secrets));
  }

  /** The HTTP status carried anywhere in the cause chain, or null. */
  static Integer statusOf(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof HttpException) {
        return ((HttpException) t).statusCode();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  static Kind kindOfStatus(int status) {
    if (status == 429) {
      return Kind.RATE_LIMITED;
    }
    if (status == 408) {
      return Kind.TIMEOUT;
    }
    if (status == 401 || status == 403) {
      return Kind.AUTHENTICATION;
    }
    if (status >= 500) {
      return Kind.SERVER_ERROR;
    }
    return Kind.BAD_REQUEST;
  }

  static Kind kindOfType(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof RateLimitException) {
        return Kind.RATE_LIMITED;
      }
      if (t instanceof InternalServerException) {
        return Kind.SERVER_ERROR;
      }
      if (t instanceof TimeoutException
          || t instanceof HttpTimeoutException
          || t instanceof InterruptedIOException
          || t instanceof java.util.concurrent.TimeoutException
          || t instanceof ConnectException
          || t instanceof UnresolvedAddressException
          || t instanceof UnresolvedModelServerException) {
        return Kind.TIMEOUT;
      }
      if (t instanceof AuthenticationException) {
        return Kind.AUTHENTICATION;
      }
      if (t instanceof InvalidRequestException || t instanceof ModelNotFoundException) {
        return Kind.BAD_REQUEST;
      }
      if (t instanceof com.fasterxml.jackson.core.JsonProcessingException) {
        return Kind.INVALID_RESPONSE;
      }
      if (t instanceof IOException) {
        return Kind.TIMEOUT;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return Kind.BAD_REQUEST;
  }

  private static String describe(Kind kind) {
    return switch (kind) {
      case RATE_LIMITED -> "rate limited";
      case SERVER_ERROR -> "server error";
      case TIMEOUT -> "no answer in time or connection failed";
      case AUTHENTICATION -> "authentication failed (check the API key variable)";
      case INVALID_RESPONSE -> "unusable response";
      default -> "request rejected";
    };
  }

  /**
   * The innermost non-blank message of the chain (a provider's {@code error.message} when the text
   * is a JSON error body), redacted, on one line, cut to {@link #MAX_DETAIL}.
   */
  private static String detail(Throwable e, List<String> secrets) {
    String text = "";
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && !m.isBlank() && !m.equals(String.valueOf(t.getCause()))) {
        text = m;
      } else if (text.isEmpty() && t.getCause() == null && !(t instanceof HttpException)) {
        text = t.getClass().getSimpleName();
      }
      if (t.getCause() == t) {
        break;
      }
    }
    text = redact(providerMessage(text), secrets).replaceAll("\\s+", " ").trim();
    return text.length() <= MAX_DETAIL ? text : text.substring(0, MAX_DETAIL) + "...";
  }

  /**
   * The message of a JSON error body in the shapes of OpenAI, Anthropic, Gemini ({@code {"error":
   * {"message", "code"|"type"|"status"}}}) and Ollama ({@code {"error": "..."}}), with its code;
   * else {@code text}.
   */
  static String providerMessage(String text) {
    if (!text.trim().startsWith("{")) {
      return text;
    }
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (IOException | RuntimeException e) {
      return text;
    }
    JsonNode error = root.path("error");
    if (error.isTextual()) {
      return error.asText();
    }
    String message = error.path("message").asText("");
    if (message.isBlank()) {
      return text;
    }
    for (String codeField : List.of("code", "type", "status")) {
      JsonNode code = error.path(codeField);
      if (code.isValueNode() && !code.asText().isBlank()) {
        return message + " [" + code.asText() + "]";
      }
    }
    return message;
  }

  /** {@code text} with every secret replaced by {@code ***}. */
  static String redact(String text, List<String> secrets) {
    String out = text;
    for (String s : secrets) {
      if (s != null && !s.isEmpty()) {
        out = out.replace(s, "***");
      }
    }
    return out;
  }

  /** The original exception if no message in its chain holds a secret; else a redacted stand-in. */
  private static Throwable safeCause(Throwable e, List<String> secrets) {
    boolean leaks = false;
    for (Throwable t = e; t != null && !leaks; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      leaks = !redact(m, secrets).equals(m);
      if (t.getCause() == t) {
        break;
      }
    }
    if (!leaks) {
      return e;
    }
    RuntimeException clean =
        new RuntimeException(
            e.getClass().getName() + ": " + redact(String.valueOf(e.getMessage()), secrets));
    clean.setStackTrace(e.getStackTrace());
    return clean;
  }
}

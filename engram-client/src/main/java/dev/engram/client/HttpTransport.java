package dev.engram.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.StorageException;
import dev.engram.json.MemoryJson;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * One HTTP exchange with the server, with the client's single retry policy: a 429 or 503 reply, or
 * a connection that could not be opened, is tried again up to {@code maxRetries} times, waiting
 * what the server's {@code Retry-After} asks (seconds or an HTTP date, capped at {@code
 * maxBackoff}) or else an exponential backoff from {@code initialBackoff}. Retrying is safe for
 * every call: the server writes nothing when it answers 429 or 503, and nothing was sent when the
 * connection failed. The key travels in the {@code Authorization} header and is never logged or put
 * into a message.
 */
final class HttpTransport {
  /** A reply: its status and JSON body (JSON null when the body is empty). */
  record Reply(int status, JsonNode body) {
    boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  /** Waits between attempts (replaced in tests). */
  interface Sleeper {
    void sleep(Duration d) throws InterruptedException;
  }

  private final HttpClient http;
  private final URI base;
  private final String authorization;
  private final Duration timeout;
  private final int maxRetries;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Clock clock;
  private final Sleeper sleeper;

  HttpTransport(
      HttpClient http,
      URI base,
      String apiKey,
      Duration timeout,
      int maxRetries,
      Duration initialBackoff,
      Duration maxBackoff,
      Clock clock,
      Sleeper sleeper) {
    this.http = http;
    this.base = base;
    this.authorization = "Token " + apiKey;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /** Sends and returns the reply, whatever its status, after the retries. */
  Reply send(String method, String path, JsonNode body) {
    HttpResponse<String> r = exchange(method, path, body);
    return new Reply(r.statusCode(), parse(r.statusCode(), r.body()));
  }

  /**
   * Sends and returns the text of a 2xx reply as it came (a reply that is not JSON, such as JSON
   * Lines); any other reply becomes its typed exception.
   */
  String okText(String method, String path, JsonNode body) {
    HttpResponse<String> r = exchange(method, path, body);
    if (r.statusCode() < 200 || r.statusCode() >= 300) {
      throw RemoteErrors.of(r.statusCode(), parse(r.statusCode(), r.body()), Optional.empty());
    }
    return r.body();
  }

  private HttpResponse<String> exchange(String method, String path, JsonNode body) {
    HttpRequest request = request(method, path, body);
    Duration backoff = initialBackoff;
    for (int attempt = 0; ; attempt++) {
      HttpResponse<String> r;
      try {
        r = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      } catch (ConnectException e) {
        if (attempt >= maxRetries) {
          throw new StorageException(
              "the Engram server at " + base + " is unreachable: " + e.getMessage(), e);
        }
        pause(backoff);
        backoff = next(backoff);
        continue;
      } catch (IOException e) {
        throw new StorageException(method + " " + path + " failed: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException(method + " " + path + " was interrupted", e);
      }
      int status = r.statusCode();
      if ((status == 429 || status == 503) && attempt < maxRetries) {
        pause(retryAfter(r).orElse(backoff));
        backoff = next(backoff);
        continue;
      }
      return r;
    }
  }

  /** Sends and returns the body of a 2xx reply; any other reply becomes its typed exception. */
  JsonNode ok(String method, String path, JsonNode body, Optional<String> memoryId) {
    Reply r = send(method, path, body);
    if (!r.ok()) {
      throw RemoteErrors.of(r.status(), r.body(), memoryId);
    }
    return r.body();
  }

  private HttpRequest request(String method, String path, JsonNode body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path))
            .timeout(timeout)
            .header("Authorization", authorization)
            .header("Accept", "application/json");
    if (body == null) {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      b.header("Content-Type", "application/json");
      b.method(
          method,
          HttpRequest.BodyPublishers.ofString(MemoryJson.write(body), StandardCharsets.UTF_8));
    }
    return b.build();
  }

  private static JsonNode parse(int status, String text) {
    if (text == null || text.isBlank()) {
      return MemoryJson.mapper().nullNode();
    }
    try {
      return MemoryJson.mapper().readTree(text);
    } catch (JsonProcessingException e) {
      // Not JSON (a proxy's error page, say): keep the status, say what came back.
      return MemoryJson.mapper()
          .createObjectNode()
          .put(
              "error",
              "a non-JSON reply (HTTP "
                  + status
                  + "): "
                  + text.substring(0, Math.min(200, text.length())));
    }
  }

  /** The server's Retry-After: delay-seconds or an HTTP date, capped at {@code maxBackoff}. */
  private Optional<Duration> retryAfter(HttpResponse<?> r) {
    return r.headers()
        .firstValue("Retry-After")
        .flatMap(
            v -> {
              String t = v.trim();
              try {
                return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(t))));
              } catch (NumberFormatException notSeconds) {
                try {
                  Instant at =
                      ZonedDateTime.parse(t, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                  Duration d = Duration.between(clock.instant(), at);
                  return Optional.of(d.isNegative() ? Duration.ZERO : d);
                } catch (DateTimeParseException notADate) {
                  return Optional.empty();
                }
              }
            })
        .map(d -> d.compareTo(maxBackoff) > 0 ? maxBackoff : d);
  }

  private Duration next(Duration backoff) {
    Duration doubled = backoff.multipliedBy(2);
    return doubled.compareTo(maxBackoff) > 0 ? maxBackoff : doubled;
  }

  private void pause(Duration d) {
    try {
      sleeper.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting to retry", e);
    }
  }
}

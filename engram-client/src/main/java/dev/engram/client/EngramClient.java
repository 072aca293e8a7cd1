package dev.engram.client;

import dev.engram.Memory;
import dev.engram.SuppressForbidden;
import dev.engram.ValidationException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Opens a {@link RemoteMemory}: the {@link Memory} API served by {@code engram serve}.
 *
 * <pre>{@code
 * try (Memory memory = EngramClient.builder()
 *     .baseUrl("http://127.0.0.1:8765")
 *     .apiKey(System.getenv("ENGRAM_API_KEY"))
 *     .build()) {
 *   memory.add(Scope.user("alice"), "I moved to Lisbon");
 * }
 * }</pre>
 *
 * The tenant is the API key's; deleting a scope ({@code deleteAll}), {@code reset} and {@code
 * purgeExpired} need an admin key.
 */
public final class EngramClient {
  private EngramClient() {}

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Settings of a client. Defaults: 60 s per request, 10 s to connect, 3 retries of 429/503 replies
   * and refused connections with a backoff from 250 ms doubling up to 10 s (a server's Retry-After
   * wins, up to that cap), 4 threads for the {@code *Async} calls.
   */
  public static final class Builder {
    private URI baseUrl;
    private String apiKey;
    private Duration timeout = Duration.ofSeconds(60);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private int maxRetries = 3;
    private Duration initialBackoff = Duration.ofMillis(250);
    private Duration maxBackoff = Duration.ofSeconds(10);
    private int asyncThreads = 4;
    private Clock clock = systemClock();
    private HttpTransport.Sleeper sleeper = d -> Thread.sleep(d.toMillis());

    private Builder() {}

    /** The server's address, for example {@code http://127.0.0.1:8765} (required). */
    public Builder baseUrl(String url) {
      if (url == null || url.isBlank()) {
        throw new ValidationException("base_url", "is required");
      }
      URI u;
      try {
        u = URI.create(url.trim().endsWith("/") ? url.trim() : url.trim() + "/");
      } catch (IllegalArgumentException e) {
        throw new ValidationException("base_url", "'" + url + "' is not a URL");
      }
      if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
        throw new ValidationException(
            "base_url", "'" + url + "' must start with http:// or https://");
      }
      this.baseUrl = u;
      return this;
    }

    /** The API key ({@code engram keys create}); required. */
    public Builder apiKey(String key) {
      if (key == null || key.isBlank()) {
        throw new ValidationException("api_key", "is required");
      }
      this.apiKey = key.trim();
      return this;
    }

    /** How long one request may take. */
    public Builder timeout(Duration t) {
      this.timeout = positive("timeout", t);
      return this;
    }

    public Builder connectTimeout(Duration t) {
      this.connectTimeout = positive("connect_timeout", t);
      return this;
    }

    /** How often a 429 or 503 reply or a refused connection is tried again (0 to 10). */
    public Builder maxRetries(int n) {
      if (n < 0 || n > 10) {
        throw new ValidationException("max_retries", "must be between 0 and 10, got " + n);
      }
      this.maxRetries = n;
      return this;
    }

    /** The first wait before a retry (doubled each time up to {@link #maxBackoff}). */
    public Builder initialBackoff(Duration d) {
      this.initialBackoff = positive("initial_backoff", d);
      return this;
    }

    /** The longest wait before a retry, also the cap on a server's Retry-After. */
    public Builder maxBackoff(Duration d) {
      this.maxBackoff = positive("max_backoff", d);
      return this;
    }

    /** Threads that run {@code addAsync} and {@code searchAsync} (1 to 64). */
    public Builder asyncThreads(int n) {
      if (n < 1 || n > 64) {
        throw new ValidationException("async_threads", "must be between 1 and 64, got " + n);
      }
      this.asyncThreads = n;
      return this;
    }

    /** The clock that reads HTTP-date Retry-After headers. */
    public Builder clock(Clock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    /**
     * The default clock: the system clock in UTC, read nowhere else; {@link #clock} replaces it.
     */
    @SuppressForbidden(reason = "a builder's default clock")
    private static Clock systemClock() {
      return Clock.systemUTC();
    }

    Builder sleeper(HttpTransport.Sleeper s) {
      this.sleeper = Objects.requireNonNull(s, "sleeper");
      return this;
    }

    /** A client; nothing is sent until the first call. */
    public RemoteMemory build() {
      if (baseUrl == null) {
        throw new ValidationException("base_url", "is required");
      }
      if (apiKey == null) {
        throw new ValidationException("api_key", "is required");
      }
      HttpClient http =
          HttpClient.newBuilder()
              .connectTimeout(connectTimeout)
              .followRedirects(HttpClient.Redirect.NEVER)
              .build();
      return new RemoteMemory(
          new HttpTransport(
              http,
              baseUrl,
              apiKey,
              timeout,
              maxRetries,
              initialBackoff,
              maxBackoff,
              clock,
              sleeper),
          asyncThreads);
    }

    private static Duration positive(String field, Duration d) {
      if (d == null || d.isNegative() || d.isZero()) {
        throw new ValidationException(field, "must be a positive duration, got " + d);
      }
      return d;
    }
  }
}

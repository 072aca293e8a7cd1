package dev.engram.server.http;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fixed one-minute window per API key: at most {@code perMinute} requests in each calendar minute
 * of the injected clock; the next one gets 429 with {@code Retry-After} (seconds to the next
 * window). Off when {@code perMinute} is 0.
 */
public final class RateLimiter {
  private final int perMinute;
  private final Clock clock;
  private final Map<String, long[]> windows = new ConcurrentHashMap<>();

  public RateLimiter(int perMinute, Clock clock) {
    this.perMinute = perMinute;
    this.clock = clock;
  }

  /**
   * Counts one request of a key; throws a 429 {@link ApiException} when the key is over its limit.
   */
  public void acquire(String keyId) {
    if (perMinute == 0) {
      return;
    }
    long nowMs = clock.millis();
    long minute = nowMs / 60_000;
    long[] over = new long[1];
    windows.compute(
        keyId,
        (k, w) -> {
          long[] window = w == null || w[0] != minute ? new long[] {minute, 0} : w;
          window[1]++;
          over[0] = window[1] > perMinute ? 1 : 0;
          return window;
        });
    if (over[0] == 1) {
      long retry = Math.max(1, (minute + 1) * 60 - nowMs / 1000);
      throw new ApiException(
          429,
          "rate limit exceeded: at most " + perMinute + " requests per minute for this key",
          "rate_limit",
          Map.of(
              "Retry-After",
              Long.toString(retry),
              "X-RateLimit-Limit",
              Integer.toString(perMinute),
              "X-RateLimit-Remaining",
              "0"));
    }
  }
}

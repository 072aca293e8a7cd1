package dev.engram.pipeline;

import java.time.Duration;
import java.util.Objects;

/**
 * Bounded retries with exponential backoff and full jitter, for retryable model failures (429, 5xx,
 * timeouts) and, up to {@link #invalidAnswerAttempts()}, for answers that could not be used.
 *
 * @param maxAttempts calls in all, including the first (at least 1)
 * @param initialBackoff the first delay
 * @param maxBackoff the longest delay
 * @param invalidAnswerAttempts calls in all when the answer is not usable JSON (at least 1)
 */
public record RetryPolicy(
    int maxAttempts, Duration initialBackoff, Duration maxBackoff, int invalidAnswerAttempts) {
  public RetryPolicy {
    if (maxAttempts < 1 || invalidAnswerAttempts < 1) {
      throw new IllegalArgumentException("attempts must be at least 1");
    }
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
  }

  /** 3 attempts, 0.5 s doubling up to 8 s; 2 attempts for unusable answers. */
  public static RetryPolicy defaults() {
    return new RetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(8), 2);
  }

  /** No retries at all. */
  public static RetryPolicy none() {
    return new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 1);
  }

  /** The upper bound of the delay before attempt {@code attempt} (2 = the first retry). */
  Duration backoffCap(int attempt) {
    long ms = initialBackoff.toMillis() << Math.min(20, Math.max(0, attempt - 2));
    return Duration.ofMillis(Math.min(ms, maxBackoff.toMillis()));
  }
}

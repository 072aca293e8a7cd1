package dev.engram.server.http;

import dev.engram.LanguageModelException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether the language model answered lately, as the server's own adds saw it (a readiness probe
 * that called the provider would spend tokens): the latest call's outcome, and a failure that says
 * the provider cannot be reached or refuses the credentials makes the server not ready for {@link
 * #WINDOW}.
 */
public final class ModelHealth {
  /** How long a reachability failure keeps the server not ready, unless a later call succeeds. */
  public static final Duration WINDOW = Duration.ofMinutes(5);

  private final Clock clock;
  private volatile Instant lastSuccess;
  private volatile Instant lastFailure;
  private volatile String lastFailureReason;

  public ModelHealth(Clock clock) {
    this.clock = clock;
  }

  /** An add that called the model finished. */
  public void succeeded() {
    lastSuccess = clock.instant();
  }

  /** An add failed because of the model. */
  public void failed(LanguageModelException e) {
    if (e.kind() == LanguageModelException.Kind.INVALID_RESPONSE
        || e.kind() == LanguageModelException.Kind.BAD_REQUEST) {
      return;
    }
    lastFailure = clock.instant();
    lastFailureReason = e.kind().name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Why the model counts as unreachable now, if it does. */
  public Optional<String> unreachable() {
    Instant f = lastFailure;
    if (f == null
        || (lastSuccess != null && lastSuccess.isAfter(f))
        || Duration.between(f, clock.instant()).compareTo(WINDOW) > 0) {
      return Optional.empty();
    }
    return Optional.of("the last model call failed (" + lastFailureReason + ") at " + f);
  }
}

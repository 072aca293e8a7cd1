package planted;

import java.time.Clock;
import java.time.Instant;

/** Passes every check: formatted, no finding, time from a clock it is given. */
public final class Clean {
  private Clean() {}

  /** The time on {@code clock}. */
  public static Instant now(Clock clock) {
    return clock.instant();
  }
}

package planted;

import java.time.Instant;

/** Reads the system clock instead of an injected one. */
public final class ReadsTheSystemClock {
  private ReadsTheSystemClock() {}

  /** Now, by the system clock. */
  public static Instant now() {
    return Instant.now();
  }
}

package dev.engram.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deterministic clock for tests: every {@link #instant()} call returns the previous instant plus
 * one second, starting at {@link #START}. So memories added one after another have strictly
 * increasing creation times. Thread-safe.
 */
public final class TickingClock extends Clock {
  /** The first instant returned. */
  public static final Instant START = Instant.parse("2024-05-01T08:00:00Z");

  private final AtomicLong next = new AtomicLong(START.getEpochSecond());

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a TickingClock is always UTC");
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochSecond(next.getAndIncrement());
  }

  /** The instant the next call to {@link #instant()} will return, without consuming it. */
  public Instant peek() {
    return Instant.ofEpochSecond(next.get());
  }

  /** Moves the clock forward. */
  public void advance(Duration d) {
    next.addAndGet(d.getSeconds());
  }
}

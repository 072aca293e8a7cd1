package dev.engram.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock for tests that stands still until moved. Thread-safe. */
public final class MutableClock extends Clock {
  private final AtomicReference<Instant> now;

  public MutableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  public void set(Instant at) {
    now.set(at);
  }

  public void advance(Duration d) {
    now.updateAndGet(i -> i.plus(d));
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a MutableClock is always UTC");
  }

  @Override
  public Instant instant() {
    return now.get();
  }
}

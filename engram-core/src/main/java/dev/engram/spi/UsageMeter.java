package dev.engram.spi;

import dev.engram.Usage;
import java.time.Duration;

/** Adds up the language-model calls of one add. Thread-safe. */
public final class UsageMeter {
  private int calls;
  private long inputTokens;
  private long outputTokens;
  private long nanos;

  public synchronized void record(int in, int out, Duration latency) {
    calls++;
    inputTokens += in;
    outputTokens += out;
    nanos += latency.toNanos();
  }

  public synchronized Usage snapshot() {
    return new Usage(calls, inputTokens, outputTokens, Duration.ofNanos(nanos));
  }
}

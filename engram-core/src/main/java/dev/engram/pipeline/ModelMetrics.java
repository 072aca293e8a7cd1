package dev.engram.pipeline;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Cumulative language-model figures per pipeline step (fact extraction, memory consolidation,
 * summary refresh...): calls, failed calls, prompt and completion tokens, and time. Thread-safe;
 * read with {@link #snapshot()}.
 */
public final class ModelMetrics {
  private final Map<String, Counters> steps = new ConcurrentHashMap<>();

  /**
   * One step's totals.
   *
   * @param calls model calls made, retries included
   * @param failures calls that failed (error or unusable answer)
   * @param promptTokens prompt tokens of the calls that answered
   * @param completionTokens completion tokens of the calls that answered
   * @param time wall time of the calls that answered
   */
  public record Step(
      long calls, long failures, long promptTokens, long completionTokens, Duration time) {}

  void answered(String step, int in, int out, Duration latency) {
    Counters c = steps.computeIfAbsent(step, k -> new Counters());
    c.calls.increment();
    c.promptTokens.add(in);
    c.completionTokens.add(out);
    c.nanos.add(latency.toNanos());
  }

  void failed(String step) {
    Counters c = steps.computeIfAbsent(step, k -> new Counters());
    c.calls.increment();
    c.failures.increment();
  }

  /** The totals so far, by step name. */
  public Map<String, Step> snapshot() {
    Map<String, Step> out = new TreeMap<>();
    steps.forEach(
        (k, c) ->
            out.put(
                k,
                new Step(
                    c.calls.sum(),
                    c.failures.sum(),
                    c.promptTokens.sum(),
                    c.completionTokens.sum(),
                    Duration.ofNanos(c.nanos.sum()))));
    return out;
  }

  private static final class Counters {
    final LongAdder calls = new LongAdder();
    final LongAdder failures = new LongAdder();
    final LongAdder promptTokens = new LongAdder();
    final LongAdder completionTokens = new LongAdder();
    final LongAdder nanos = new LongAdder();
  }
}

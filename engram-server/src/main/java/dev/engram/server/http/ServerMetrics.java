package dev.engram.server.http;

import dev.engram.Usage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The server's Prometheus metrics: request counts and latency histograms per route, add and search
 * latency, LLM calls and tokens, add events waiting, and the search index's lag behind the record.
 */
public final class ServerMetrics {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Timer adds;
  private final Timer searches;
  private final Counter llmCalls;
  private final Counter inputTokens;
  private final Counter outputTokens;

  /**
   * The request timers by method, route template and status, looked up once each: building and
   * registering a timer on every request cost more than the rest of the metrics together (a
   * builder, tags, and the registry's own lookup under its lock).
   */
  private final Map<RequestKey, Timer> requestTimers = new ConcurrentHashMap<>();

  /** The tags of one request timer. */
  private record RequestKey(String method, String route, int status) {}

  public ServerMetrics() {
    adds =
        Timer.builder("engram.memory.add")
            .description("Time to run one add (embedding, model calls, commit)")
            .publishPercentileHistogram()
            .register(registry);
    searches =
        Timer.builder("engram.memory.search")
            .description("Time to run one search")
            .publishPercentileHistogram()
            .register(registry);
    llmCalls =
        Counter.builder("engram.llm.calls")
            .description("Language model calls made by adds")
            .register(registry);
    inputTokens =
        Counter.builder("engram.llm.tokens")
            .tag("direction", "input")
            .description("Language model tokens used by adds")
            .register(registry);
    outputTokens =
        Counter.builder("engram.llm.tokens")
            .tag("direction", "output")
            .description("Language model tokens used by adds")
            .register(registry);
  }

  /** Records one HTTP request. */
  public void request(String method, String route, int status, long nanos) {
    requestTimers
        .computeIfAbsent(
            new RequestKey(method, route, status),
            k ->
                Timer.builder("engram.http.requests")
                    .tag("method", k.method())
                    .tag("route", k.route())
                    .tag("status", Integer.toString(k.status()))
                    .publishPercentileHistogram()
                    .register(registry))
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Records one add and its model usage. */
  public void add(long nanos, Usage usage) {
    adds.record(Duration.ofNanos(nanos));
    llmCalls.increment(usage.llmCalls());
    inputTokens.increment((double) usage.inputTokens());
    outputTokens.increment((double) usage.outputTokens());
  }

  /** Records one search. */
  public void search(long nanos) {
    searches.record(Duration.ofNanos(nanos));
  }

  /** Publishes a gauge read when scraped. */
  public void gauge(String name, String description, Supplier<Number> value) {
    Gauge.builder(name, value).description(description).register(registry);
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }
}

package dev.engram.bench.server;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.engram.bench.ReportJson;
import dev.engram.bench.scale.ScaleReport.Latency;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The result of a {@link ServerBench} run, as JSON with snake_case keys: the same work done through
 * the REST server (kept-alive HTTP/1.1 clients in a process of their own on 127.0.0.1, {@code
 * Authorization: Token}) and directly on the {@code Memory} it serves. Latencies in milliseconds;
 * ratios are HTTP over in-process for rates (below 1 means the server is slower).
 *
 * @param conversation the LoCoMo sample imported
 * @param turns turns imported (infer=false, one add per turn) before the measurements
 * @param importSeconds time the import took (in process)
 * @param embedder the embedder's model id
 * @param load what sent the concurrent clients' requests: {@code jvm} (the bench's client JVM) or
 *     {@code wrk}
 * @param topK results per search
 * @param queries distinct queries (the conversation's questions)
 * @param machine processors and Java version of the run
 * @param search one client: the latency of each query in process and over HTTP
 * @param throughput searches per second with {@code clients} concurrent clients
 * @param adds adds per second with infer=false, one client and concurrent clients
 */
@JsonPropertyOrder({
  "conversation",
  "turns",
  "import_seconds",
  "embedder",
  "load",
  "top_k",
  "queries",
  "machine",
  "search",
  "throughput",
  "adds"
})
public record ServerBenchReport(
    String conversation,
    int turns,
    @JsonProperty("import_seconds") double importSeconds,
    String embedder,
    String load,
    @JsonProperty("top_k") int topK,
    int queries,
    Machine machine,
    Latencies search,
    Rates throughput,
    Adds adds) {

  /** Where the run took place. */
  @JsonPropertyOrder({"processors", "java_version"})
  public record Machine(int processors, @JsonProperty("java_version") String javaVersion) {}

  /**
   * One client, the same operations both ways: searches interleaved query by query after a warm-up,
   * adds in alternating blocks.
   *
   * @param inProcessMs latencies of the {@code Memory} call
   * @param httpMs latencies of the request ({@code POST /v3/memories/search/} or {@code POST
   *     /v1/memories/}), written to answer read, in the client's process
   * @param p50AddedMs what the server adds at the median: http p50 minus in-process p50
   * @param p95AddedMs the same at p95
   */
  @JsonPropertyOrder({"in_process_ms", "http_ms", "p50_added_ms", "p95_added_ms"})
  public record Latencies(
      @JsonProperty("in_process_ms") Latency inProcessMs,
      @JsonProperty("http_ms") Latency httpMs,
      @JsonProperty("p50_added_ms") double p50AddedMs,
      @JsonProperty("p95_added_ms") double p95AddedMs) {
    static Latencies of(double[] inProcess, double[] http) {
      Latency in = Latency.of(inProcess);
      Latency over = Latency.of(http);
      return new Latencies(in, over, round(over.p50() - in.p50()), round(over.p95() - in.p95()));
    }
  }

  /**
   * Operations per second both ways with {@code clients} concurrent clients.
   *
   * @param clients concurrent clients (threads; one HTTP client each over HTTP)
   * @param operations operations timed each way
   * @param inProcessPerSecond operations per second on the memory directly
   * @param httpPerSecond operations per second through the server
   * @param ratio http over in-process
   * @param inProcessCpuMs CPU milliseconds the bench's process spent per operation in process
   * @param httpCpuMs CPU milliseconds the bench's process (the server) spent per operation over
   *     HTTP; the clients (wrk or the client JVM) are other processes. On a loaded machine the
   *     rates are noisy and these are not: they say what an operation costs, whatever waits for a
   *     core
   * @param inProcessJitMs of {@code inProcessCpuMs}, the JIT compiler's milliseconds per operation
   *     (the JVM's estimate): more than a few percent says the code was still being compiled while
   *     it was timed, and the rates are not yet the steady state's
   * @param httpJitMs the same over HTTP
   */
  @JsonPropertyOrder({
    "clients",
    "operations",
    "in_process_per_second",
    "http_per_second",
    "ratio",
    "in_process_cpu_ms",
    "http_cpu_ms",
    "in_process_jit_ms",
    "http_jit_ms"
  })
  public record Rates(
      int clients,
      int operations,
      @JsonProperty("in_process_per_second") double inProcessPerSecond,
      @JsonProperty("http_per_second") double httpPerSecond,
      double ratio,
      @JsonProperty("in_process_cpu_ms") double inProcessCpuMs,
      @JsonProperty("http_cpu_ms") double httpCpuMs,
      @JsonProperty("in_process_jit_ms") double inProcessJitMs,
      @JsonProperty("http_jit_ms") double httpJitMs) {
    static Rates of(
        int clients,
        int operations,
        double inProcessSeconds,
        double httpSeconds,
        double inProcessCpuMs,
        double httpCpuMs,
        double inProcessJitMs,
        double httpJitMs) {
      double in = operations / inProcessSeconds;
      double http = operations / httpSeconds;
      return new Rates(
          clients,
          operations,
          round(in),
          round(http),
          round(http / in),
          round(inProcessCpuMs),
          round(httpCpuMs),
          round(inProcessJitMs),
          round(httpJitMs));
    }
  }

  /**
   * Adds of single turns with infer=false ({@code POST /v1/memories/} over HTTP), one client and
   * concurrent, and the one client's latencies.
   */
  @JsonPropertyOrder({"one_client", "concurrent", "one_client_latency"})
  public record Adds(
      @JsonProperty("one_client") Rates oneClient,
      Rates concurrent,
      @JsonProperty("one_client_latency") Latencies oneClientLatency) {}

  /** The report as indented JSON text. */
  public String toJson() {
    return ReportJson.text(this, "the server benchmark report");
  }

  /** Writes the report as indented JSON. */
  public void writeJson(Path file) {
    ReportJson.write(this, file, "the server benchmark report");
  }

  /** A Markdown table of the figures, for docs/BENCHMARKS.md. */
  public String toMarkdown() {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "LoCoMo %s: %d turns imported (infer=false), %d queries, top %d, embedder %s,"
                + " concurrent clients from %s, %d processors, Java %s%n%n",
            conversation,
            turns,
            queries,
            topK,
            embedder,
            load,
            machine.processors(),
            machine.javaVersion()));
    b.append("| measure | in process | over HTTP | difference / ratio |\n|---|---|---|---|\n");
    b.append(
        String.format(
            Locale.ROOT,
            "| search p50, 1 client | %.2f ms | %.2f ms | %+.2f ms |%n",
            search.inProcessMs().p50(),
            search.httpMs().p50(),
            search.p50AddedMs()));
    b.append(
        String.format(
            Locale.ROOT,
            "| search p95, 1 client | %.2f ms | %.2f ms | %+.2f ms |%n",
            search.inProcessMs().p95(),
            search.httpMs().p95(),
            search.p95AddedMs()));
    row(b, "searches/s, " + throughput.clients() + " clients", throughput);
    cpuRow(b, "CPU per search, " + throughput.clients() + " clients", throughput);
    jitRow(b, "of which JIT compiling", throughput);
    b.append(
        String.format(
            Locale.ROOT,
            "| add p50 (infer=false), 1 client | %.2f ms | %.2f ms | %+.2f ms |%n",
            adds.oneClientLatency().inProcessMs().p50(),
            adds.oneClientLatency().httpMs().p50(),
            adds.oneClientLatency().p50AddedMs()));
    b.append(
        String.format(
            Locale.ROOT,
            "| add p95 (infer=false), 1 client | %.2f ms | %.2f ms | %+.2f ms |%n",
            adds.oneClientLatency().inProcessMs().p95(),
            adds.oneClientLatency().httpMs().p95(),
            adds.oneClientLatency().p95AddedMs()));
    row(b, "adds/s (infer=false), 1 client", adds.oneClient());
    row(b, "adds/s (infer=false), " + adds.concurrent().clients() + " clients", adds.concurrent());
    cpuRow(b, "CPU per add, " + adds.concurrent().clients() + " clients", adds.concurrent());
    jitRow(b, "of which JIT compiling", adds.concurrent());
    return b.toString();
  }

  /** The JIT compiler's milliseconds per operation both ways, each as a share of its CPU. */
  private static void jitRow(StringBuilder b, String label, Rates r) {
    b.append(
        String.format(
            Locale.ROOT,
            "| %s | %.3f ms (%.0f%%) | %.3f ms (%.0f%%) | |%n",
            label,
            r.inProcessJitMs(),
            share(r.inProcessJitMs(), r.inProcessCpuMs()),
            r.httpJitMs(),
            share(r.httpJitMs(), r.httpCpuMs())));
  }

  private static double share(double part, double whole) {
    return whole == 0 ? 0 : 100 * part / whole;
  }

  /** The CPU milliseconds per operation both ways and their ratio (in process over HTTP). */
  private static void cpuRow(StringBuilder b, String label, Rates r) {
    b.append(
        String.format(
            Locale.ROOT,
            "| %s | %.3f ms | %.3f ms | %.2f |%n",
            label,
            r.inProcessCpuMs(),
            r.httpCpuMs(),
            r.httpCpuMs() == 0 ? 0 : r.inProcessCpuMs() / r.httpCpuMs()));
  }

  private static void row(StringBuilder b, String label, Rates r) {
    b.append(
        String.format(
            Locale.ROOT,
            "| %s | %.1f | %.1f | %.2f |%n",
            label,
            r.inProcessPerSecond(),
            r.httpPerSecond(),
            r.ratio()));
  }

  static double round(double v) {
    return Math.round(v * 1000.0) / 1000.0;
  }
}

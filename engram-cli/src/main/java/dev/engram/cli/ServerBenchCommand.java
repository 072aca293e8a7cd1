package dev.engram.cli;

import dev.engram.bench.server.ServerBench;
import dev.engram.bench.server.ServerBenchReport;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram bench server}: the REST server's cost over the engine ({@link ServerBench}) on one
 * LoCoMo conversation, with the HTTP clients in a JVM of their own. Prints a Markdown table (or,
 * with {@code --json}, the JSON report) on stdout. The server's access log is off unless {@code
 * --access-log} is given (it would print a line per request).
 */
@Command(
    name = "server",
    description = {
      "Time searches and adds through the REST server (HTTP on 127.0.0.1, driven from a client JVM of "
          + "its own) against the same calls in process, on one LoCoMo conversation: one-client latency and what the "
          + "server adds at p50 and p95, throughput with concurrent clients, adds/s.",
      "Runs in an empty data directory (a temporary one, deleted afterwards, unless --data-dir is given)."
    })
final class ServerBenchCommand extends ReportingBenchCommand {
  private static final String ACCESS_LOG_LEVEL =
      "org.slf4j.simpleLogger.log.dev.engram.server.access";

  @Option(
      names = "--data",
      required = true,
      paramLabel = "FILE",
      description = "A file in LoCoMo's format.")
  Path data;

  @Option(
      names = "--conversation",
      paramLabel = "N",
      defaultValue = "1",
      description = "Which conversation of the file, from 1 (default: ${DEFAULT-VALUE}).")
  int conversation;

  @Option(
      names = "--turns",
      paramLabel = "N",
      defaultValue = "0",
      description = "Turns to import (default: all).")
  int turns;

  @Option(
      names = "--queries",
      paramLabel = "Q",
      defaultValue = "0",
      description = "Questions to time as searches (default: all of the conversation's).")
  int queries;

  @Option(
      names = "--top-k",
      paramLabel = "K",
      defaultValue = "10",
      description = "Results per search (default: ${DEFAULT-VALUE}).")
  int topK;

  @Option(
      names = "--warm-up",
      paramLabel = "N",
      defaultValue = "10000",
      description =
          "Searches each way before timing, from one client and again from the concurrent"
              + " clients (default: ${DEFAULT-VALUE}: enough for the server's request path, the"
              + " engine and the client's JVM to be compiled, as a running server's are; on two"
              + " cores the JIT compiler was still compiling the request path after 2,000).")
  int warmUp;

  @Option(
      names = "--latency-searches",
      paramLabel = "N",
      defaultValue = "1000",
      description =
          "One-client searches timed each way for the latency percentiles, the questions in turn"
              + " (default: ${DEFAULT-VALUE}).")
  int latencySearches;

  @Option(
      names = "--client",
      paramLabel = "wrk|jvm",
      defaultValue = "wrk",
      converter = LoadToolConverter.class,
      description =
          "What sends the concurrent clients' requests: wrk (default; Debian's wrk package, a load"
              + " tool in C that takes little of the server's cores) or jvm (the bench's client"
              + " JVM, one thread per client). The one-client latencies always come from the"
              + " client JVM, which times each request.")
  ServerBench.LoadTool load;

  @Option(
      names = "--clients",
      paramLabel = "C",
      defaultValue = "16",
      description = "Concurrent clients for the throughput figures (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(
      names = "--searches",
      paramLabel = "N",
      defaultValue = "10000",
      description =
          "Searches timed each way with the concurrent clients, in four blocks (default:"
              + " ${DEFAULT-VALUE}: blocks of a second or more in process, as wrk's are; with"
              + " blocks of a tenth of a second the in-process rate counted the threads' start).")
  int searches;

  @Option(
      names = "--adds",
      paramLabel = "N",
      defaultValue = "2000",
      description =
          "Adds (infer=false) timed each way, with one client and with the concurrent clients,"
              + " in four blocks (default: ${DEFAULT-VALUE}).")
  int adds;

  @Option(
      names = "--add-warm-up",
      paramLabel = "N",
      defaultValue = "4000",
      description =
          "Adds each way before the adds are timed, from one client and again from the concurrent"
              + " clients, into scopes of their own (default: ${DEFAULT-VALUE}: without them the"
              + " JIT compiler still compiled the add path while the adds were timed).")
  int addWarmUp;

  @Option(
      names = "--embedder",
      paramLabel = "hash|onnx",
      defaultValue = "onnx",
      converter = BenchEmbedder.Converter.class,
      description =
          "onnx: the default in-process model ("
              + OnnxEmbedders.DEFAULT
              + "; default); hash: the cheap "
              + "benchmark embedder (no model, for trying the command out).")
  BenchEmbedder embedder;

  @Option(
      names = "--access-log",
      description = "Keep the server's access log on (a line per request on stderr).")
  boolean accessLog;

  /** Reads {@code --client}. */
  static final class LoadToolConverter
      implements picocli.CommandLine.ITypeConverter<ServerBench.LoadTool> {
    @Override
    public ServerBench.LoadTool convert(String value) {
      for (ServerBench.LoadTool t : ServerBench.LoadTool.values()) {
        if (t.label().equals(value)) {
          return t;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "expected wrk or jvm, got '" + value + "'");
    }
  }

  @Override
  protected String temporaryPrefix() {
    return "engram-server-bench-";
  }

  @Override
  protected int run(Path dir, PrintWriter stdout, PrintWriter err) {
    if (!accessLog) {
      System.setProperty(ACCESS_LOG_LEVEL, "warn");
    }
    ServerBench.Options options =
        new ServerBench.Options(
            data,
            conversation,
            turns,
            queries,
            topK,
            warmUp,
            latencySearches,
            clients,
            searches,
            adds,
            addWarmUp,
            dir,
            load);
    Embedder e = embedder.create();
    err.println(
        "engram bench server: running (about five minutes with the ONNX embedder, one with the hash embedder)");
    err.flush();
    ServerBenchReport result = ServerBench.run(options, e);
    report.out().ifPresent(result::writeJson);
    stdout.print(report.json() ? result.toJson() + System.lineSeparator() : result.toMarkdown());
    return BaseCommand.EXIT_OK;
  }
}

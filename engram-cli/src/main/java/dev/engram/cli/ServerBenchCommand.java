package dev.engram.cli;

import dev.engram.EngramException;
import dev.engram.ValidationException;
import dev.engram.bench.scale.DataDirectories;
import dev.engram.bench.scale.HashingEmbedder;
import dev.engram.bench.server.ServerBench;
import dev.engram.bench.server.ServerBenchReport;
import dev.engram.onnx.OnnxEmbedders;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code engram bench server}: the REST server's cost over the engine ({@link ServerBench}) on one LoCoMo
 * conversation, with the HTTP clients in a JVM of their own. Prints a Markdown table (or, with {@code --json}, the JSON report) on stdout. The server's access
 * log is off unless {@code --access-log} is given (it would print a line per request).
 */
@Command(name = "server",
    description = {"Time searches and adds through the REST server (HTTP on 127.0.0.1, driven from a client JVM of "
        + "its own) against the same calls in process, on one LoCoMo conversation: one-client latency and what the "
        + "server adds at p50 and p95, throughput with concurrent clients, adds/s.",
        "Runs in an empty data directory (a temporary one, deleted afterwards, unless --data-dir is given)."})
final class ServerBenchCommand implements Callable<Integer> {
  private static final String ACCESS_LOG_LEVEL = "org.slf4j.simpleLogger.log.dev.engram.server.access";

  @Spec
  CommandSpec spec;

  @Option(names = "--data", required = true, paramLabel = "FILE", description = "A file in LoCoMo's format.")
  Path data;

  @Option(names = "--conversation", paramLabel = "N", defaultValue = "1",
      description = "Which conversation of the file, from 1 (default: ${DEFAULT-VALUE}).")
  int conversation;

  @Option(names = "--turns", paramLabel = "N", defaultValue = "0",
      description = "Turns to import (default: all).")
  int turns;

  @Option(names = "--queries", paramLabel = "Q", defaultValue = "0",
      description = "Questions to time as searches (default: all of the conversation's).")
  int queries;

  @Option(names = "--top-k", paramLabel = "K", defaultValue = "10",
      description = "Results per search (default: ${DEFAULT-VALUE}).")
  int topK;

  @Option(names = "--warm-up", paramLabel = "N", defaultValue = "30",
      description = "Searches each way before timing (default: ${DEFAULT-VALUE}).")
  int warmUp;

  @Option(names = "--clients", paramLabel = "C", defaultValue = "16",
      description = "Concurrent clients for the throughput figures (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--searches", paramLabel = "N", defaultValue = "1000",
      description = "Searches timed each way with the concurrent clients (default: ${DEFAULT-VALUE}).")
  int searches;

  @Option(names = "--adds", paramLabel = "N", defaultValue = "300",
      description = "Adds (infer=false) timed each way, with one client and with the concurrent clients"
          + " (default: ${DEFAULT-VALUE}).")
  int adds;

  @Option(names = "--embedder", paramLabel = "hash|onnx", defaultValue = "onnx",
      converter = ScaleBenchCommand.EmbedderConverter.class,
      description = "onnx: the default in-process model (" + OnnxEmbedders.DEFAULT + "; default); hash: the cheap "
          + "benchmark embedder (no model, for trying the command out).")
  ScaleBenchCommand.EmbedderChoice embedder;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "An empty or new data directory to fill and keep (default: a temporary one, deleted after).")
  Path dataDir;

  @Option(names = "--access-log", description = "Keep the server's access log on (a line per request on stderr).")
  boolean accessLog;

  @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON report to FILE.")
  Path out;

  @Option(names = "--json", description = "Print the JSON report instead of the table.")
  boolean json;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    if (!accessLog) {
      System.setProperty(ACCESS_LOG_LEVEL, "warn");
    }
    try {
      Path dir = dataDir != null ? dataDir : Files.createTempDirectory("engram-server-bench-");
      try {
        ServerBench.Options options = new ServerBench.Options(data, conversation, turns, queries, topK, warmUp,
            clients, searches, adds, dir);
        Embedder e = embedder == ScaleBenchCommand.EmbedderChoice.ONNX ? OnnxEmbedders.defaultEmbedder()
            : HashingEmbedder.create();
        err.println("engram bench server: running (a minute or two with the ONNX embedder)");
        err.flush();
        ServerBenchReport report = ServerBench.run(options, e);
        if (out != null) {
          report.writeJson(out);
        }
        stdout.print(json ? report.toJson() + System.lineSeparator() : report.toMarkdown());
        return BaseCommand.EXIT_OK;
      } finally {
        if (dataDir == null) {
          DataDirectories.deleteTree(dir);
        }
      }
    } catch (ValidationException e) {
      return fail(err, BaseCommand.EXIT_BAD_INPUT, e.getMessage());
    } catch (EngramException | IllegalStateException e) {
      return fail(err, BaseCommand.EXIT_FAILURE, e.getMessage());
    } catch (IOException | UncheckedIOException e) {
      return fail(err, BaseCommand.EXIT_FAILURE, "I/O error: " + e.getMessage());
    } finally {
      stdout.flush();
      err.flush();
    }
  }

  private static int fail(PrintWriter err, int code, String message) {
    err.println("engram bench server: " + message);
    return code;
  }
}

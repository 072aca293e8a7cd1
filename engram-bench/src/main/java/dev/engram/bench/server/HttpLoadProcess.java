package dev.engram.bench.server;

import dev.engram.bench.server.HttpLoadClient.Job;
import dev.engram.bench.server.HttpLoadClient.Result;
import dev.engram.bench.server.HttpLoadClient.Setup;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A running {@link HttpLoadClient}: a child JVM on this JVM's class path (the CLI's jar, or a
 * test's class path), given jobs one at a time. Its stderr goes to ours. {@link #close} ends it.
 */
final class HttpLoadProcess implements AutoCloseable {
  /** The client's heap: it holds a few connections and the latencies of one job. */
  private static final String HEAP = "-Xmx256m";

  /**
   * A system property of the bench's JVM whose value, split at white space, is added to the
   * client's JVM options: e.g. {@code -XX:StartFlightRecording=filename=client.jfr} to profile the
   * client in its own process.
   */
  static final String JVM_OPTIONS_PROPERTY = "engram.bench.client.jvm-options";

  private final Process process;
  private final PrintStream jobs;
  private final BufferedReader results;

  private HttpLoadProcess(Process process) {
    this.process = process;
    this.jobs = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
    this.results =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Starts the client process and hands it the setup. */
  static HttpLoadProcess start(Setup setup) {
    String java =
        ProcessHandle.current()
            .info()
            .command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new java.util.ArrayList<>(List.of(java, HEAP));
    String extra = System.getProperty(JVM_OPTIONS_PROPERTY, "").strip();
    if (!extra.isEmpty()) {
      command.addAll(List.of(extra.split("\\s+")));
    }
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), HttpLoadClient.class.getName()));
    ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    try {
      HttpLoadProcess p = new HttpLoadProcess(pb.start());
      p.jobs.println(HttpLoadClient.JSON.writeValueAsString(setup));
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the HTTP load client process", e);
    }
  }

  /**
   * Runs a job in the client process and waits for its result; an {@link IllegalStateException} if
   * it failed.
   */
  Result run(Job job) {
    try {
      jobs.println(HttpLoadClient.JSON.writeValueAsString(job));
      String line = results.readLine();
      // The JVM may print to stdout before the client's answers (JFR's startup notice): skipped.
      while (line != null && !line.startsWith("{")) {
        line = results.readLine();
      }
      if (line == null) {
        throw new IllegalStateException(
            "the HTTP load client process ended (exit "
                + (process.waitFor(5, TimeUnit.SECONDS) ? process.exitValue() : "unknown")
                + ")");
      }
      Result r = HttpLoadClient.JSON.readValue(line, Result.class);
      if (r.error() != null) {
        throw new IllegalStateException("HTTP " + job.op() + " failed: " + r.error());
      }
      return r;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot talk to the HTTP load client process", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  @Override
  public void close() {
    jobs.close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}

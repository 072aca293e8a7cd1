package dev.engram.bench.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.bench.server.HttpLoadClient.Job;
import dev.engram.bench.server.HttpLoadClient.Result;
import dev.engram.bench.server.HttpLoadClient.Setup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Concurrent HTTP load from <a href="https://github.com/wg/wrk">wrk</a> (Debian's {@code wrk}
 * package), for the throughput figures of {@code engram bench server}: a load tool written in C
 * takes a small share of the two cores the server runs on, where the bench's own client JVM takes a
 * large one, so the rate measures the server rather than its client. Each job is one wrk run on
 * {@code clients} kept-alive connections of one wrk thread for a whole number of seconds (wrk runs
 * for a duration, not a count); a Lua script sends the job's bodies in turn (the same ones {@link
 * HttpLoadClient} sends, request {@code i} for {@code i} from {@code from}). wrk reports a rate,
 * not each request's latency: a {@link Result} from here holds the time the job's requests take at
 * that rate and no latencies.
 */
final class WrkLoad {
  /** Longest a job may run. */
  private static final long MAX_SECONDS = 600;

  /**
   * Shortest a job runs: on a loaded machine a one-second run could end before any synchronous add
   * came back, and the whole report was lost.
   */
  private static final long MIN_SECONDS = 3;

  private final Path wrk;
  private final Setup setup;

  private WrkLoad(Path wrk, Setup setup) {
    this.wrk = wrk;
    this.setup = setup;
  }

  /** wrk on the {@code PATH}, if there is one. */
  static Optional<Path> find() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String folder : path.split(java.io.File.pathSeparator, -1)) {
      if (folder.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(folder, "wrk");
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * A load over the setup's server, with wrk from the {@code PATH}.
   *
   * @throws IllegalStateException if wrk is not installed
   */
  static WrkLoad of(Setup setup) {
    Path wrk =
        find()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "--client wrk: no wrk on the PATH (Debian: apt-get install wrk)"));
    return new WrkLoad(wrk, setup);
  }

  /**
   * Runs a job's requests for about {@code seconds} (rounded up to whole seconds, at least {@value
   * #MIN_SECONDS}); an {@link IllegalStateException} if wrk failed or any answer was not 200.
   */
  Result run(Job job, double seconds) {
    int requests = job.to() - job.from();
    long duration = Math.min(MAX_SECONDS, Math.max(MIN_SECONDS, (long) Math.ceil(seconds)));
    try {
      Path script = Files.createTempFile("engram-wrk-", ".lua");
      Files.writeString(script, script(job), StandardCharsets.UTF_8);
      List<String> command =
          new ArrayList<>(
              List.of(
                  wrk.toString(),
                  "-t1",
                  "-c" + job.clients(),
                  "-d" + duration + "s",
                  "--timeout",
                  "30s",
                  "-s",
                  script.toString(),
                  "http://" + setup.host() + ":" + setup.port() + "/"));
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(duration + 60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("wrk did not finish " + job.op() + " in time");
      }
      Files.deleteIfExists(script);
      JsonNode summary = summary(out, p.exitValue());
      long answered = summary.get("requests").asLong();
      long errors = summary.get("errors").asLong();
      if (errors > 0 || answered == 0) {
        throw new IllegalStateException(
            "wrk " + job.op() + ": " + answered + " answered, " + errors + " failed or not 200");
      }
      double perSecond = answered / summary.get("seconds").asDouble();
      return new Result(requests / perSecond, new double[0], null, answered);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run wrk", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static JsonNode summary(String out, int exit) throws IOException {
    for (String line : out.lines().toList()) {
      if (line.startsWith("{\"requests\"")) {
        return HttpLoadClient.JSON.readTree(line);
      }
    }
    throw new IllegalStateException("wrk exited " + exit + " without a summary: " + out.strip());
  }

  /** The Lua script of a job: its bodies, the request function, the stop and the summary. */
  private String script(Job job) throws IOException {
    StringBuilder lua = new StringBuilder();
    lua.append("local bodies = {\n");
    for (int i = job.from(); i < job.to(); i++) {
      lua.append("  ").append(luaString(HttpLoadClient.body(setup, job, i))).append(",\n");
    }
    lua.append("}\n");
    lua.append("local path = ")
        .append(luaString(HttpLoadClient.path(job).getBytes(StandardCharsets.US_ASCII)))
        .append("\n");
    lua.append("local headers = {[\"Content-Type\"] = \"application/json\",")
        .append(" [\"Authorization\"] = ")
        .append(luaString(("Token " + setup.key()).getBytes(StandardCharsets.US_ASCII)))
        .append("}\n");
    lua.append(
        """
        local sent = 0
        request = function()
          sent = sent % #bodies + 1
          return wrk.format("POST", path, headers, bodies[sent])
        end
        done = function(summary, latency, requests)
          local e = summary.errors
          io.write(string.format('{"requests": %d, "errors": %d, "seconds": %.6f}\\n',
            summary.requests, e.connect + e.read + e.write + e.status + e.timeout,
            summary.duration / 1e6))
        end
        """);
    return lua.toString();
  }

  /** A Lua string literal of UTF-8 bytes, every byte outside printable ASCII escaped. */
  static String luaString(byte[] bytes) {
    StringBuilder b = new StringBuilder(bytes.length + 2).append('"');
    for (byte x : bytes) {
      int c = x & 0xff;
      if (c == '"' || c == '\\') {
        b.append('\\').append((char) c);
      } else if (c >= 0x20 && c < 0x7f) {
        b.append((char) c);
      } else {
        b.append(String.format(Locale.ROOT, "\\%03d", c)); // Lua's decimal escape, \ddd
      }
    }
    return b.append('"').toString();
  }
}

package dev.engram.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs the engram command in-process against one data directory, capturing stdout and stderr. */
final class Cli {
  private final Path dataDir;

  Cli(Path dataDir) {
    this.dataDir = dataDir;
  }

  /** The outcome of one run. */
  record Result(int exitCode, String out, String err) {
    /** Stdout parsed as JSON. */
    JsonNode json() {
      try {
        return MemoryJson.mapper().readTree(out);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new UncheckedIOException("stdout is not JSON: " + out, e);
      }
    }
  }

  /** A file of the test resources. */
  static Path resource(String name) {
    try {
      return Path.of(Cli.class.getResource("/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The mini LoCoMo file the bench commands run on (one conversation of 7 turns, 5 scored
   * questions).
   */
  static String benchMiniLocomo() {
    return resource("bench-mini-locomo.json").toString();
  }

  /** Runs {@code engram <command> --data-dir <dir> <args...>}. */
  Result run(String command, String... args) {
    List<String> all = new ArrayList<>();
    all.add(command);
    all.add("--data-dir");
    all.add(dataDir.toString());
    all.addAll(List.of(args));
    return raw(all.toArray(String[]::new));
  }

  /** Runs {@code engram <args...>} exactly as given. */
  static Result raw(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = new CommandLine(new EngramCommand());
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int code = cmd.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  /** Adds a verbatim memory and returns its id. */
  String addVerbatim(String userId, String text, String... more) {
    List<String> args = new ArrayList<>(List.of("--user-id", userId, "--no-infer", "--json", text));
    args.addAll(List.of(more));
    Result r = run("add", args.toArray(String[]::new));
    if (r.exitCode() != 0) {
      throw new AssertionError("add failed: " + r);
    }
    return r.json().get("results").get(0).get("id").asText();
  }
}

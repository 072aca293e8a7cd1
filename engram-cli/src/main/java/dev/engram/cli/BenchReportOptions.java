package dev.engram.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The options of the benchmark commands that run on a data directory of their own and print a
 * report ({@link ReportingBenchCommand}): the directory to fill and keep, the report file, and the
 * report's form.
 */
final class BenchReportOptions {
  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "An empty or new data directory to fill and keep (default: a temporary one, deleted after).")
  Path dataDir;

  @Option(names = "--out", paramLabel = "FILE", description = "Also write the JSON report to FILE.")
  Path out;

  @Option(names = "--json", description = "Print the JSON report instead of the text one.")
  boolean json;

  /**
   * The data directory given with {@code --data-dir}, kept after the run; empty for a temporary
   * one.
   */
  Optional<Path> keptDataDir() {
    return Optional.ofNullable(dataDir);
  }

  /** The file {@code --out} names for the JSON report, if any. */
  Optional<Path> out() {
    return Optional.ofNullable(out);
  }

  /** True if {@code --json} was given. */
  boolean json() {
    return json;
  }
}

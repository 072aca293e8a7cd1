package dev.engram.cli;

import dev.engram.EngramException;
import dev.engram.ValidationException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The frame of the benchmark commands that run on a data directory of their own and print a report
 * ({@code bench scale}, {@code bench server}): the shared {@link BenchReportOptions}, the working
 * directory ({@code --data-dir}, kept, else a temporary one deleted after), and the exit codes of
 * every command: {@value BaseCommand#EXIT_OK} success, {@value BaseCommand#EXIT_BAD_INPUT} bad
 * options or input, {@value BaseCommand#EXIT_FAILURE} any other failure, with a one-line message on
 * stderr.
 */
abstract class ReportingBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin BenchReportOptions report;

  /** The start of the temporary directory's name, for example {@code engram-scale-}. */
  protected abstract String temporaryPrefix();

  /**
   * Runs the benchmark in {@code dir} (empty or new, unless the command reads a kept one) and
   * prints its report on {@code stdout}; progress and notes go to {@code err}. Returns the exit
   * code.
   *
   * @throws IllegalArgumentException or {@link ValidationException} for bad options or input (exit
   *     2)
   */
  protected abstract int run(Path dir, PrintWriter stdout, PrintWriter err) throws IOException;

  @Override
  public final Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    PrintWriter stdout = spec.commandLine().getOut();
    try (WorkDirectory work =
        WorkDirectory.keptOrTemporary(report.keptDataDir(), temporaryPrefix())) {
      return run(work.path(), stdout, err);
    } catch (IllegalArgumentException | ValidationException e) {
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

  /**
   * Fails with {@code message} on stderr, named after the command ({@code engram bench scale:
   * ...}).
   */
  final int fail(PrintWriter err, int code, String message) {
    err.println("engram bench " + spec.name() + ": " + message);
    return code;
  }
}

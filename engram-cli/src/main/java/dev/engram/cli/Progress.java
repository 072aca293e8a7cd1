package dev.engram.cli;

import java.io.PrintWriter;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar on stderr. On an interactive terminal it redraws in place; otherwise (pipes, logs,
 * tests) only the final state is printed once, so that captured stderr stays readable. Not
 * thread-safe.
 */
final class Progress implements AutoCloseable {
  private final ProgressBar bar;

  private Progress(ProgressBar bar) {
    this.bar = bar;
  }

  /** Starts a bar of {@code total} units. */
  // Built for and run on Java 17, where a null console means no terminal; Console.isTerminal() is
  // Java 22's.
  @SuppressWarnings("SystemConsoleNull")
  static Progress start(String task, long total, String unit, PrintWriter err) {
    ProgressBarBuilder b =
        new ProgressBarBuilder()
            .setTaskName(task)
            .setInitialMax(total)
            .setUnit(" " + unit, 1)
            .showSpeed()
            .setUpdateIntervalMillis(200);
    if (System.console() == null) {
      b.setConsumer(new FinalLineConsumer(err)).setStyle(ProgressBarStyle.ASCII);
    }
    return new Progress(b.build());
  }

  void stepBy(long n) {
    bar.stepBy(n);
  }

  @Override
  public void close() {
    bar.close();
  }

  /** Keeps the latest rendering and prints it once, when the bar closes. */
  private static final class FinalLineConsumer implements ProgressBarConsumer {
    private final PrintWriter err;
    private volatile String last;

    FinalLineConsumer(PrintWriter err) {
      this.err = err;
    }

    @Override
    public int getMaxRenderedLength() {
      return 100;
    }

    @Override
    public void accept(String rendered) {
      last = rendered;
    }

    @Override
    public void close() {
      String line = last;
      if (line != null) {
        err.println(line.strip());
        err.flush();
      }
    }
  }
}

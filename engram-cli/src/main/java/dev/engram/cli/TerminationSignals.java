package dev.engram.cli;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

/**
 * SIGTERM and SIGINT as a request to stop, for long-running commands ({@code engram serve}). The JVM's own handling
 * of these signals runs the shutdown hooks and exits with 143 or 130, which service managers and tests read as a
 * failure; with a handler installed here the command stops gracefully on its main thread and exits with 0.
 * {@code sun.misc.Signal} (module {@code jdk.unsupported}) is the only way the JDK offers to handle a signal.
 */
final class TerminationSignals {
  private static final Logger LOG = LoggerFactory.getLogger(TerminationSignals.class);
  private static final String[] NAMES = {"TERM", "INT"};

  private TerminationSignals() {}

  /**
   * Runs {@code onSignal} (on a JVM signal thread; it should only wake the command up) when SIGTERM or SIGINT
   * arrives. Returns false if a signal could not be handled here (then the JVM's default applies to it: shutdown
   * hooks run and the exit code is 128 + the signal number).
   */
  static boolean install(Runnable onSignal) {
    boolean all = true;
    for (String name : NAMES) {
      try {
        Signal.handle(new Signal(name), s -> onSignal.run());
      } catch (IllegalArgumentException | UnsupportedOperationException unavailable) {
        LOG.debug("SIG{} cannot be handled here: {}", name, unavailable.getMessage());
        all = false;
      }
    }
    return all;
  }
}

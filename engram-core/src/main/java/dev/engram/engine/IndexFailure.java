package dev.engram.engine;

import dev.engram.StorageException;

/**
 * A failure of the search index (not of the record) while the engine brought it up to date: the
 * signal for the engine to recreate the index and rebuild it from the record. {@link #in} finds one
 * in a cause chain, so it is recognised also when the record's change feed wrapped it.
 */
final class IndexFailure extends StorageException {
  IndexFailure(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * Runs one index call; its runtime failure becomes an {@link IndexFailure} naming {@code what}.
   */
  static <T> T call(String what, java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (IndexFailure e) {
      throw e;
    } catch (RuntimeException e) {
      throw new IndexFailure("the search index failed to " + what + ": " + e.getMessage(), e);
    }
  }

  /**
   * Runs one index call without a result; see {@link #call(String, java.util.function.Supplier)}.
   */
  static void run(String what, Runnable call) {
    call(
        what,
        () -> {
          call.run();
          return null;
        });
  }

  /** True if {@code e} or one of its causes is an {@link IndexFailure}. */
  static boolean in(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof IndexFailure) {
        return true;
      }
    }
    return false;
  }
}

package dev.engram.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A task that runs once, on whichever thread claims it first: one handed to another thread ({@link
 * #run}) is run by the thread that asks for its result ({@link #get}) if the other has not started
 * it by then, so a busy or slow-to-wake helper thread never delays its caller by more than the task
 * itself. Thread-safe.
 */
final class ClaimedTask<T> implements Runnable {
  private final Supplier<T> task;
  private final AtomicBoolean claimed = new AtomicBoolean();
  private final CompletableFuture<T> result = new CompletableFuture<>();

  ClaimedTask(Supplier<T> task) {
    this.task = task;
  }

  /** Runs the task unless a thread has claimed it already. */
  @Override
  public void run() {
    if (!claimed.compareAndSet(false, true)) {
      return;
    }
    try {
      result.complete(task.get());
    } catch (RuntimeException | Error e) {
      result.completeExceptionally(e);
    }
  }

  /**
   * The task's result: runs it here if no thread has claimed it, else waits for the thread that
   * did; its failure is thrown as the task threw it.
   */
  T get() {
    run();
    try {
      return result.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }
}

package dev.engram;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds that must never fail or slow their caller (a chat turn): one daemon thread runs them in
 * submission order from a bounded queue; a failed add, or one refused because the queue is full or
 * closed, is logged and counted, never thrown. Used by the framework integrations that feed
 * finished exchanges to long-term memory. Thread-safe.
 */
public final class BackgroundAdds implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundAdds.class);

  private final Memory memory;
  private final ThreadPoolExecutor thread;
  private final AtomicReference<CompletableFuture<Void>> tail =
      new AtomicReference<>(CompletableFuture.completedFuture(null));
  private final AtomicLong failures = new AtomicLong();

  /**
   * @param memory where the adds go
   * @param threadName the name of the adding thread
   * @param queueSize how many adds may wait; more are dropped and counted as failures
   */
  public BackgroundAdds(Memory memory, String threadName, int queueSize) {
    this.memory = Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(threadName, "threadName");
    if (queueSize < 1) {
      throw new ValidationException("queue_size", "must be positive, got " + queueSize);
    }
    this.thread =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(queueSize),
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
  }

  /** Queues an add; {@code what} names it in log lines (never its text). */
  public void submit(AddRequest request, String what) {
    Objects.requireNonNull(request, "request");
    CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      thread.execute(
          () -> {
            try {
              memory.add(request);
            } catch (RuntimeException e) {
              failures.incrementAndGet();
              LOG.warn("Engram could not remember {}: {}", what, e.toString());
            } finally {
              done.complete(null);
            }
          });
      tail.set(done);
    } catch (RejectedExecutionException full) {
      failures.incrementAndGet();
      LOG.warn("Engram's add queue is full or closed; {} is not remembered", what);
    }
  }

  /** Counts a failure that happened before an add could be submitted. */
  public void countFailure() {
    failures.incrementAndGet();
  }

  /** Adds that failed or were dropped so far. */
  public long failures() {
    return failures.get();
  }

  /** Waits until the adds submitted so far are done; false if {@code timeout} passed first. */
  public boolean awaitIdle(Duration timeout) {
    try {
      tail.get().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true; // failures are counted and logged by the add itself
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Lets submitted adds finish (up to 30 s), then stops the thread. */
  @Override
  public void close() {
    awaitIdle(Duration.ofSeconds(30));
    thread.shutdown();
  }
}

package dev.engram.server.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's access log ({@code dev.engram.server.access}, one line per request), written by a
 * thread of its own: a request is logged before its answer is flushed, and the log's output (a
 * synchronized stream, often a terminal or a pipe) would then hold every answer back. A request
 * only queues its line. The writer wakes for the first line after a quiet spell; while lines keep
 * coming it writes what has gathered every {@value #GATHER_MILLIS} ms, so a busy server's requests
 * do not wake it one by one (at 16 clients that took the writer's CPU from about 25 to 10
 * microseconds a line, docs/benchmarks/log.md). Nothing is dropped: when {@value #CAPACITY} lines
 * wait, the request writes its own line (the log slows the server rather than lose lines), and
 * {@link #close} writes every waiting line before it returns.
 */
public final class AccessLog implements AutoCloseable {
  /** Lines that may wait for the writer. */
  static final int CAPACITY = 8192;

  /** How long the writer lets lines gather after writing some: at most this late in the log. */
  static final long GATHER_MILLIS = 10;

  private static final Logger ACCESS = LoggerFactory.getLogger("dev.engram.server.access");

  /**
   * One request: its id, method, path, status, duration and API key id (absent on public routes).
   */
  public record Line(
      String requestId, String method, String path, int status, long millis, String keyId) {
    /** The line as written: {@code <request id> <method> <path> <status> <ms>ms key=<key id>}. */
    public String format() {
      return requestId + " " + method + " " + path + " " + status + " " + millis + "ms key="
          + keyId;
    }
  }

  private static final Line STOP = new Line("", "", "", 0, 0, "");

  /** What the writer does between writing lines and looking for more while the server is busy. */
  @FunctionalInterface
  interface Gather {
    void await() throws InterruptedException;
  }

  private final boolean enabled;
  private final Consumer<String> sink;
  private final Gather gather;
  private final BlockingQueue<Line> waiting = new ArrayBlockingQueue<>(CAPACITY);
  private final Thread writer;
  private volatile boolean closed;

  /**
   * The log of {@code dev.engram.server.access} at INFO; off (nothing queued, no thread) when that
   * level is off.
   */
  public static AccessLog toLogger() {
    return new AccessLog(ACCESS.isInfoEnabled(), ACCESS::info);
  }

  /**
   * @param enabled whether lines are written at all
   * @param sink where formatted lines go, on the writer thread (or a request's, when the queue is
   *     full)
   */
  AccessLog(boolean enabled, Consumer<String> sink) {
    this(enabled, sink, () -> Thread.sleep(GATHER_MILLIS));
  }

  /**
   * @param gather how the writer lets lines gather after writing some ({@value #GATHER_MILLIS} ms
   *     of sleep in the server)
   */
  AccessLog(boolean enabled, Consumer<String> sink, Gather gather) {
    this.enabled = enabled;
    this.sink = Objects.requireNonNull(sink, "sink");
    this.gather = Objects.requireNonNull(gather, "gather");
    this.writer = new Thread(this::drain, "engram-access-log");
    writer.setDaemon(true);
    if (enabled) {
      writer.start();
    }
  }

  /** Queues a request's line (writes it now if the queue is full or the log closed). */
  public void record(Line line) {
    if (!enabled) {
      return;
    }
    if (closed || !waiting.offer(line)) {
      sink.accept(line.format());
    }
  }

  @SuppressWarnings(
      "ReferenceEquality") // STOP is a sentinel: only that very instance ends the writer
  private void drain() {
    List<Line> batch = new ArrayList<>();
    while (true) {
      try {
        if (waiting.drainTo(batch) == 0) {
          batch.add(waiting.take()); // quiet: the next request's offer wakes this thread
          waiting.drainTo(batch);
        }
        for (Line l : batch) {
          if (l == STOP) {
            return;
          }
          sink.accept(l.format());
        }
        batch.clear();
        // Busy: the requests meanwhile queue their lines without waking anyone.
        gather.await();
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Writes every waiting line, then stops the writer; later lines are written by the requests
   * themselves.
   */
  @Override
  @SuppressWarnings(
      "ReferenceEquality") // STOP is a sentinel: only that very instance ends the writer
  public void close() {
    if (!enabled || closed) {
      return;
    }
    closed = true;
    try {
      waiting.put(STOP);
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // Lines queued by requests that raced with the close.
    List<Line> rest = new ArrayList<>();
    waiting.drainTo(rest);
    rest.stream().filter(l -> l != STOP).forEach(l -> sink.accept(l.format()));
  }
}

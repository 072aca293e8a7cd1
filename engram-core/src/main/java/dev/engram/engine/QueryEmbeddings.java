package dev.engram.engine;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Embeds a search's query on the search's thread and, when the embedder's queries take long enough
 * for that to pay, hands the search's keyword reads (which need only the query's words) to one of
 * the engine's keyword threads meanwhile; if that thread has not started them when the query is
 * embedded, the search's thread reads them itself ({@link ClaimedTask}). Handing work to another
 * thread costs CPU on both threads (about 0.25 ms a search on the two-core benchmark machine, where
 * a search with the hash embedder takes about 1 ms in all), which an embedding of several
 * milliseconds (an in-process model, a remote one) repays and a hashed or cached one does not. The
 * choice follows a running mean of the embedder's query times, measured on a monotonic ticker: each
 * query weighs 1/8, the mean starts at 0 (a search's first queries read their keyword lists
 * themselves), and the keyword reads go to another thread while the mean is at least {@link
 * #WORTH_NANOS}. Thread-safe.
 */
final class QueryEmbeddings {
  /** The mean query time from which the keyword reads go to another thread: 1 ms. */
  static final long WORTH_NANOS = 1_000_000L;

  /** Each query's time weighs 1/8 in the running mean. */
  private static final int WEIGHT_SHIFT = 3;

  private final Executor threads;
  private final LongSupplier ticker;
  private final AtomicLong meanNanos = new AtomicLong();

  /**
   * Hands keyword reads to {@code threads} (which may drop them when it has none free: they are
   * {@link ClaimedTask}s, which their search's thread then runs) when that pays, timing each query
   * with {@code ticker} (nanoseconds, monotonic).
   */
  QueryEmbeddings(Executor threads, LongSupplier ticker) {
    this.threads = threads;
    this.ticker = ticker;
  }

  /**
   * The query's embedding, computed on this thread; {@code beside} is first handed to another
   * thread if the embedder's queries take long.
   */
  float[] embed(Supplier<float[]> embed, Runnable beside) {
    if (meanNanos.get() >= WORTH_NANOS) {
      threads.execute(beside);
    }
    long start = ticker.getAsLong();
    try {
      return embed.get();
    } finally {
      long spent = Math.max(0, ticker.getAsLong() - start);
      meanNanos.getAndUpdate(m -> m + ((spent - m) >> WEIGHT_SHIFT));
    }
  }

  /** The running mean of the query times, in nanoseconds. */
  long meanNanos() {
    return meanNanos.get();
  }
}

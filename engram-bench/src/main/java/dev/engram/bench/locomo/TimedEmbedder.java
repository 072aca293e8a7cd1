package dev.engram.bench.locomo;

import dev.engram.spi.Embedder;
import dev.engram.spi.ForwardingEmbedder;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An embedder that times its delegate: the wall time spent in {@link #embedDocuments} and {@link
 * #embedQuery} and the texts embedded, so that a run can report how much of its ingest was the
 * embedder's work, and the embedder's own rate, which bounds the ingest's (on a machine whose cores
 * the embedder already fills, nothing else of an add can make it faster). Every call goes to the
 * delegate unchanged: the vectors are the delegate's. Thread-safe.
 */
final class TimedEmbedder extends ForwardingEmbedder {
  private final AtomicLong nanos = new AtomicLong();
  private final AtomicLong texts = new AtomicLong();

  TimedEmbedder(Embedder delegate) {
    super(delegate);
  }

  /** What the delegate did so far: its wall time and the texts it embedded. */
  record Spent(long nanos, long texts) {
    /** What was spent since {@code before}. */
    Spent minus(Spent before) {
      return new Spent(nanos - before.nanos, texts - before.texts);
    }
  }

  /** The wall time and texts so far. */
  Spent spent() {
    return new Spent(nanos.get(), texts.get());
  }

  @Override
  public float[] embedQuery(String text) {
    long start = System.nanoTime();
    try {
      return delegate.embedQuery(text);
    } finally {
      nanos.addAndGet(System.nanoTime() - start);
      texts.incrementAndGet();
    }
  }

  @Override
  public List<float[]> embedDocuments(List<String> documents) {
    long start = System.nanoTime();
    try {
      return delegate.embedDocuments(documents);
    } finally {
      nanos.addAndGet(System.nanoTime() - start);
      texts.addAndGet(documents.size());
    }
  }
}

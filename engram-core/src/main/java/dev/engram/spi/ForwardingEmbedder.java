package dev.engram.spi;

import java.util.List;
import java.util.Objects;

/**
 * An embedder that hands every call to a delegate, for wrappers (timing, counting, caching) to
 * override only what they change: a method added to {@link Embedder} is passed on here once, not
 * forgotten in each wrapper (where its default would silently replace the delegate's answer).
 */
public abstract class ForwardingEmbedder implements Embedder {
  /** The embedder every call goes to. */
  protected final Embedder delegate;

  protected ForwardingEmbedder(Embedder delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public double relevanceFloor() {
    return delegate.relevanceFloor();
  }

  @Override
  public RelevanceCalibration relevanceCalibration() {
    return delegate.relevanceCalibration();
  }

  @Override
  public float[] embedQuery(String text) {
    return delegate.embedQuery(text);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    return delegate.embedDocuments(texts);
  }
}

package dev.engram.spi;

import dev.engram.MemoryItem;
import java.util.List;

/** {@link Reranker#none()}: never asked for scores. */
enum NoReranker implements Reranker {
  INSTANCE;

  @Override
  public List<Double> scores(String query, List<MemoryItem> candidates) {
    throw new IllegalStateException("no reranker is configured");
  }

  @Override
  public boolean active() {
    return false;
  }
}

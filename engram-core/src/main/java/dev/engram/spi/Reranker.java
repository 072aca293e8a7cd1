package dev.engram.spi;

import dev.engram.SearchHit;
import java.util.List;

/**
 * Reorders fused search hits (for example with a cross-encoder). Thread-safe. The default keeps the order.
 */
public interface Reranker {
  /** The hits reordered (and possibly rescored), at most as many as given. */
  List<SearchHit> rerank(String query, List<SearchHit> hits);

  /** The reranker that changes nothing. */
  static Reranker none() {
    return (query, hits) -> hits;
  }
}

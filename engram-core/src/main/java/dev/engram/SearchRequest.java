package dev.engram;

import dev.engram.filter.Filter;
import java.util.Objects;

/**
 * A search inside one scope. Build with {@link #builder(Scope, String)}. Immutable.
 *
 * @param scope          whose memories to search
 * @param query          the query text; not blank
 * @param filter         further conditions on metadata and built-in fields; {@link Filter#all()} for none
 * @param topK           how many results at most (1..{@value #MAX_TOP_K})
 * @param threshold      minimum final score in [0,1]
 * @param explain        true to return each signal's score
 * @param includeExpired true to include expired memories
 * @param rerank         true to have the memory's reranker reorder the hits (mem0's {@code rerank}; default false);
 *                       without a configured reranker the hits keep the fused order and carry no rerank score
 */
public record SearchRequest(Scope scope, String query, Filter filter, int topK, double threshold, boolean explain,
                            boolean includeExpired, boolean rerank) {
  public static final int DEFAULT_TOP_K = 10;
  public static final int MAX_TOP_K = 1000;
  public static final int MAX_QUERY_LENGTH = 8192;

  public SearchRequest {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(filter, "filter");
    if (query == null || query.isBlank()) {
      throw new ValidationException("query", "must not be empty");
    }
    query = query.trim();
    if (query.length() > MAX_QUERY_LENGTH) {
      throw new ValidationException("query", "is " + query.length() + " characters long; the limit is "
          + MAX_QUERY_LENGTH);
    }
    if (topK < 1 || topK > MAX_TOP_K) {
      throw new ValidationException("top_k", "must be between 1 and " + MAX_TOP_K + ", got " + topK);
    }
    if (!(threshold >= 0.0 && threshold <= 1.0)) {
      throw new ValidationException("threshold", "must be a number in [0, 1], got " + threshold);
    }
  }

  public static Builder builder(Scope scope, String query) {
    return new Builder(scope, query);
  }

  /** Builder for {@link SearchRequest}: top-k 10, threshold 0, no filter, no reranking. Not thread-safe. */
  public static final class Builder {
    private final Scope scope;
    private final String query;
    private Filter filter = Filter.all();
    private int topK = DEFAULT_TOP_K;
    private double threshold;
    private boolean explain;
    private boolean includeExpired;
    private boolean rerank;

    private Builder(Scope scope, String query) {
      this.scope = scope;
      this.query = query;
    }

    public Builder filter(Filter f) {
      this.filter = Objects.requireNonNull(f, "filter");
      return this;
    }

    public Builder topK(int k) {
      this.topK = k;
      return this;
    }

    public Builder threshold(double t) {
      this.threshold = t;
      return this;
    }

    public Builder explain(boolean value) {
      this.explain = value;
      return this;
    }

    public Builder includeExpired(boolean value) {
      this.includeExpired = value;
      return this;
    }

    /** True to rerank the hits with the memory's reranker, when one is configured (default false, as mem0's). */
    public Builder rerank(boolean value) {
      this.rerank = value;
      return this;
    }

    public SearchRequest build() {
      return new SearchRequest(scope, query, filter, topK, threshold, explain, includeExpired, rerank);
    }
  }
}

package dev.engram;

import dev.engram.filter.Filter;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A search inside one scope. Build with {@link #builder(Scope, String)}. Immutable.
 *
 * @param scope whose memories to search
 * @param query the query text; not blank
 * @param filter further conditions on metadata and built-in fields; {@link Filter#all()} for none
 * @param topK how many results at most (1..{@value #MAX_TOP_K})
 * @param threshold minimum relevance score in [0,1] ({@link SearchHit#score()}); default {@value
 *     #DEFAULT_THRESHOLD}
 * @param maxTokens a context budget: the best memories whose texts fit together into this many
 *     tokens (the engine's {@link TokenCounter}, cl100k by default), at most {@code topK} of them;
 *     with graph memory on, the returned relations' facts count against it too (at most 30% of it);
 *     empty for no budget
 * @param explain true to return each signal's score
 * @param includeExpired true to include expired memories
 * @param rerank true to have the memory's reranker reorder the hits (mem0's {@code rerank}; default
 *     false); without a configured reranker the hits keep the fused order and carry no rerank score
 * @param ranking the ranking steps after fusion ({@link Ranking}; default {@link Ranking#DEFAULT})
 */
public record SearchRequest(
    Scope scope,
    String query,
    Filter filter,
    int topK,
    double threshold,
    boolean explain,
    boolean includeExpired,
    OptionalInt maxTokens,
    boolean rerank,
    Ranking ranking) {
  public static final int DEFAULT_TOP_K = 10;
  public static final int MAX_TOP_K = 1000;
  public static final int MAX_QUERY_LENGTH = 8192;

  /**
   * The threshold when none is given: 0, every candidate of a search that passes the off-topic cut
   * ({@link #OFF_TOPIC_CUT}). Scores are calibrated probabilities of relevance ({@link
   * SearchHit#score()}), so a threshold means the same on any data, but a per-hit threshold also
   * drops the lower hits of questions that have an answer, which a whole-query cut keeps. On the
   * LoCoMo and BEAM samples at top-10 a threshold of 0.3 (mem0's clients send one) or 0.5 costs
   * real questions no evidence (docs/benchmarks/log.md, "Scores that transfer").
   */
  public static final double DEFAULT_THRESHOLD = 0.0;

  /**
   * The off-topic cut of the default ranking's step {@link Ranking#names() names}, where the
   * embedder's map is fitted: a search whose best candidate (among the fusion's first 32) is less
   * likely relevant than this returns nothing, whatever the threshold. Checked on the LoCoMo and
   * BEAM samples and the 50 general questions ({@code bench locomo --off-topic}; docs/benchmarks/
   * log.md, "Scores that transfer"): 0.3 costs their real questions no evidence and keeps an answer
   * of each of the demo's questions. 0.5 ("as likely relevant as not") would empty 73% of the
   * general questions on LoCoMo, but also a plain question about a first-person memory ("where does
   * alice live" against "I moved to Lisbon last spring" scores under 0.5 with bge-small: the memory
   * holds none of its words), so the cut stays low and off-topic questions about people are the
   * names step's ({@code UnknownNames}); on BEAM no cut that keeps the evidence separates another
   * user-assistant conversation's questions.
   */
  public static final double OFF_TOPIC_CUT = 0.3;

  /**
   * A threshold that keeps what is more likely relevant than not by a fair margin for the default
   * embedder and drops the tail of every search: 0.3, the threshold mem0's clients send.
   */
  public static final double SUGGESTED_THRESHOLD = 0.3;

  /** The largest context budget accepted, in tokens. */
  public static final int MAX_TOKENS = 1_000_000;

  public SearchRequest {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(maxTokens, "maxTokens");
    Objects.requireNonNull(ranking, "ranking");
    if (query == null || query.isBlank()) {
      throw new ValidationException("query", "must not be empty");
    }
    query = query.trim();
    if (query.length() > MAX_QUERY_LENGTH) {
      throw new ValidationException(
          "query", "is " + query.length() + " characters long; the limit is " + MAX_QUERY_LENGTH);
    }
    if (topK < 1 || topK > MAX_TOP_K) {
      throw new ValidationException(
          "top_k", "must be between 1 and " + MAX_TOP_K + ", got " + topK);
    }
    if (!(threshold >= 0.0 && threshold <= 1.0)) {
      throw new ValidationException("threshold", "must be a number in [0, 1], got " + threshold);
    }
    if (maxTokens.isPresent() && (maxTokens.getAsInt() < 1 || maxTokens.getAsInt() > MAX_TOKENS)) {
      throw new ValidationException(
          "max_tokens", "must be between 1 and " + MAX_TOKENS + ", got " + maxTokens.getAsInt());
    }
  }

  /** Without a context budget and without reranking. */
  public SearchRequest(
      Scope scope,
      String query,
      Filter filter,
      int topK,
      double threshold,
      boolean explain,
      boolean includeExpired) {
    this(
        scope,
        query,
        filter,
        topK,
        threshold,
        explain,
        includeExpired,
        OptionalInt.empty(),
        false,
        Ranking.DEFAULT);
  }

  /** With the default ranking steps. */
  public SearchRequest(
      Scope scope,
      String query,
      Filter filter,
      int topK,
      double threshold,
      boolean explain,
      boolean includeExpired,
      OptionalInt maxTokens,
      boolean rerank) {
    this(
        scope,
        query,
        filter,
        topK,
        threshold,
        explain,
        includeExpired,
        maxTokens,
        rerank,
        Ranking.DEFAULT);
  }

  public static Builder builder(Scope scope, String query) {
    return new Builder(scope, query);
  }

  /**
   * Builder for {@link SearchRequest}: top-k 10 (or {@value #MAX_TOP_K} with a token budget and no
   * top-k given), threshold {@value #DEFAULT_THRESHOLD}, no budget, no filter, no reranking, the
   * default ranking steps. Not thread-safe.
   */
  public static final class Builder {
    private final Scope scope;
    private final String query;
    private Filter filter = Filter.all();
    private int topK;
    private boolean topKGiven;
    private double threshold = DEFAULT_THRESHOLD;
    private OptionalInt maxTokens = OptionalInt.empty();
    private boolean explain;
    private boolean includeExpired;
    private boolean rerank;
    private Ranking ranking = Ranking.DEFAULT;

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
      this.topKGiven = true;
      return this;
    }

    public Builder threshold(double t) {
      this.threshold = t;
      return this;
    }

    /**
     * A context budget in tokens (counted by the engine's {@link TokenCounter}, cl100k by default):
     * the search returns the best memories that fit into it together, in ranking order, skipping
     * one that would overflow it. Without {@link #topK} the count is limited by the budget alone
     * (up to {@value #MAX_TOP_K}).
     */
    public Builder maxTokens(int tokens) {
      this.maxTokens = OptionalInt.of(tokens);
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

    /**
     * True to rerank the hits with the memory's reranker, when one is configured (default false, as
     * mem0's).
     */
    public Builder rerank(boolean value) {
      this.rerank = value;
      return this;
    }

    /** The ranking steps after fusion (default {@link Ranking#DEFAULT}). */
    public Builder ranking(Ranking value) {
      this.ranking = Objects.requireNonNull(value, "ranking");
      return this;
    }

    public SearchRequest build() {
      int k = topKGiven ? topK : maxTokens.isPresent() ? MAX_TOP_K : DEFAULT_TOP_K;
      return new SearchRequest(
          scope, query, filter, k, threshold, explain, includeExpired, maxTokens, rerank, ranking);
    }
  }
}

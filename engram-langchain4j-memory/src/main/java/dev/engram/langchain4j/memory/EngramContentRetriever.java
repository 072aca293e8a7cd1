package dev.engram.langchain4j.memory;

import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.filter.Filter;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Metadata;
import dev.langchain4j.rag.query.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A LangChain4j {@link ContentRetriever} over Engram search: the user's query is searched in the
 * scope of the call ({@link ScopeResolver}), and the best memories are returned as contents (text =
 * the memory, with its score and id) until the token budget is spent. Give it to an AI service's
 * {@code contentRetriever}, or combine it with the application's own retriever with {@link
 * EngramRetrieval#augmentor}.
 *
 * <p>By default a failed search (server down, storage error) is logged and yields no memories, so
 * that the chat goes on without them; {@link Builder#failOnError(boolean)} makes it throw instead.
 */
public final class EngramContentRetriever implements ContentRetriever {
  private static final Logger LOG = LoggerFactory.getLogger(EngramContentRetriever.class);

  private final Memory memory;
  private final ScopeResolver scopes;
  private final int topK;
  private final int maxTokens;
  private final double minScore;
  private final Filter filter;
  private final boolean failOnError;

  private EngramContentRetriever(Builder b) {
    this.memory = b.memory;
    this.scopes = b.scopes;
    this.topK = b.topK;
    this.maxTokens = b.maxTokens;
    this.minScore = b.minScore;
    this.filter = b.filter;
    this.failOnError = b.failOnError;
  }

  public static Builder builder(Memory memory) {
    return new Builder(memory);
  }

  @Override
  public List<Content> retrieve(Query query) {
    Metadata md = query.metadata();
    Optional<Scope> scope =
        scopes.resolve(
            Optional.ofNullable(md).map(Metadata::chatMemoryId),
            Optional.ofNullable(md).map(Metadata::invocationParameters));
    if (scope.isEmpty() || query.text() == null || query.text().isBlank()) {
      return List.of();
    }
    List<SearchHit> hits;
    try {
      hits =
          memory
              .search(
                  SearchRequest.builder(scope.get(), query.text())
                      .topK(topK)
                      .maxTokens(maxTokens)
                      .threshold(minScore)
                      .filter(filter)
                      .build())
              .hits();
    } catch (RuntimeException e) {
      if (failOnError) {
        throw e;
      }
      LOG.warn(
          "Engram search failed; the call goes on without long-term memories: {}", e.toString());
      return List.of();
    }
    List<Content> out = new ArrayList<>();
    for (SearchHit h : hits) {
      out.add(
          Content.from(
              TextSegment.from(h.memory().text()),
              Map.of(
                  ContentMetadata.SCORE,
                  h.score(),
                  ContentMetadata.EMBEDDING_ID,
                  h.memory().id())));
    }
    return out;
  }

  /**
   * Settings: the standard scope resolver, 5 memories, 400 tokens, no minimum score, no filter,
   * fail open.
   */
  public static final class Builder {
    private final Memory memory;
    private ScopeResolver scopes = ScopeResolver.standard();
    private int topK = 5;
    private int maxTokens = 400;
    private double minScore;
    private Filter filter = Filter.all();
    private boolean failOnError;

    private Builder(Memory memory) {
      this.memory = Objects.requireNonNull(memory, "memory");
    }

    public Builder scopeResolver(ScopeResolver r) {
      this.scopes = Objects.requireNonNull(r, "scopeResolver");
      return this;
    }

    /** How many memories to search for (1..1000). */
    public Builder topK(int k) {
      if (k < 1 || k > SearchRequest.MAX_TOP_K) {
        throw new ValidationException(
            "top_k", "must be between 1 and " + SearchRequest.MAX_TOP_K + ", got " + k);
      }
      this.topK = k;
      return this;
    }

    /**
     * The most tokens the returned memories may take (the search's budget, {@code
     * SearchRequest.Builder#maxTokens}, counted by the engine's {@code dev.engram.TokenCounter}).
     */
    public Builder maxTokens(int n) {
      if (n < 1) {
        throw new ValidationException("max_tokens", "must be positive, got " + n);
      }
      this.maxTokens = n;
      return this;
    }

    /** The lowest search score kept, in [0, 1]. */
    public Builder minScore(double s) {
      if (!(s >= 0 && s <= 1)) {
        throw new ValidationException("min_score", "must be in [0, 1], got " + s);
      }
      this.minScore = s;
      return this;
    }

    /** A further filter on the memories (mem0's JSON form through {@code Mem0Filters.parse}). */
    public Builder filter(Filter f) {
      this.filter = Objects.requireNonNull(f, "filter");
      return this;
    }

    /** True to let a failed search fail the call; false (default) to go on without memories. */
    public Builder failOnError(boolean value) {
      this.failOnError = value;
      return this;
    }

    public EngramContentRetriever build() {
      return new EngramContentRetriever(this);
    }
  }
}

package dev.engram.langchain4j;

import dev.engram.MemoryItem;
import dev.engram.RerankerException;
import dev.engram.spi.Reranker;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.model.scoring.ScoringModel;
import java.util.List;
import java.util.Objects;

/**
 * The engine's {@link Reranker} over any LangChain4j {@link ScoringModel} (the hosted rerank APIs
 * of {@link RerankApiScoringModel}, or any other scoring model an application has, such as an
 * in-process cross-encoder): each candidate memory's text is scored against the query in one {@code
 * scoreAll} call. Whatever the model throws, or a reply with the wrong number of scores, becomes a
 * {@link RerankerException} (the engine then keeps the fused order and logs it). Thread-safe if the
 * model is.
 */
public final class ScoringModelReranker implements Reranker {
  private final ScoringModel model;
  private final String modelId;
  private final int candidates;

  /**
   * @param model the scoring model
   * @param modelId its name in errors, for example {@code cohere/rerank-v3.5}
   * @param candidates how many fused hits to score per search (at least 1)
   */
  public ScoringModelReranker(ScoringModel model, String modelId, int candidates) {
    this.model = Objects.requireNonNull(model, "model");
    this.modelId = Objects.requireNonNull(modelId, "modelId");
    if (candidates < 1) {
      throw new IllegalArgumentException("candidates must be at least 1, got " + candidates);
    }
    this.candidates = candidates;
  }

  /**
   * A reranker over one of the hosted rerank APIs, scoring {@value Reranker#DEFAULT_CANDIDATES}
   * candidates.
   */
  public static ScoringModelReranker of(RerankApi api, ModelSettings settings) {
    RerankApiScoringModel m = new RerankApiScoringModel(api, settings);
    return new ScoringModelReranker(m, m.modelId(), DEFAULT_CANDIDATES);
  }

  /** This reranker with another number of candidates. */
  public ScoringModelReranker withCandidates(int value) {
    return new ScoringModelReranker(model, modelId, value);
  }

  public String modelId() {
    return modelId;
  }

  @Override
  public int candidates() {
    return candidates;
  }

  @Override
  public List<Double> scores(String query, List<MemoryItem> items) {
    if (items.isEmpty()) {
      return List.of();
    }
    Response<List<Double>> r;
    try {
      r = model.scoreAll(items.stream().map(m -> TextSegment.from(m.text())).toList(), query);
    } catch (RuntimeException e) {
      throw new RerankerException("the reranker " + modelId + " failed: " + e.getMessage(), e);
    }
    List<Double> scores = r == null ? null : r.content();
    if (scores == null || scores.size() != items.size()) {
      throw new RerankerException(
          "the reranker "
              + modelId
              + " returned "
              + (scores == null ? 0 : scores.size())
              + " scores for "
              + items.size()
              + " memories");
    }
    return scores;
  }
}

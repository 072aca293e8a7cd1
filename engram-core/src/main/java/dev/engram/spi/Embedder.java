package dev.engram.spi;

import java.util.List;

/**
 * Turns text into vectors. Implementations are thread-safe, return L2-normalised vectors of {@link
 * #dimension()} floats, and may block (in-process inference or a network call).
 */
public interface Embedder {
  /**
   * A stable id of the model, recorded in the data directory (for example {@code
   * bge-small-en-v1.5-q}).
   */
  String modelId();

  /** The length of every vector this embedder returns. */
  int dimension();

  /** Embeds a search query (some models prefix queries with an instruction). */
  float[] embedQuery(String text);

  /**
   * The cosine similarity this model typically gives a query and a text about something else, in
   * [0, 1): search maps cosines from this floor up to 1 onto relevance scores from 0 to 1 (see
   * {@code SearchHit#score()}), so that one threshold means the same with every model. The default
   * is 0 (no floor), right for models whose unrelated texts are near orthogonal; models with a
   * narrow cone of embeddings (bge, MiniLM) give a measured value.
   */
  default double relevanceFloor() {
    return 0.0;
  }

  /**
   * The map from this model's cosine similarities to the probability that a memory is relevant to a
   * query, which search scores hits with ({@code SearchHit#score()}) and thresholds apply to. A
   * model that ships a fitted map ({@code engram bench calibrate}) returns it; the default is the
   * {@linkplain RelevanceCalibration#fallback(double) fallback} on {@link #relevanceFloor()}.
   */
  default RelevanceCalibration relevanceCalibration() {
    return RelevanceCalibration.fallback(relevanceFloor());
  }

  /** Embeds stored texts, in order, one vector per text. */
  List<float[]> embedDocuments(List<String> texts);
}

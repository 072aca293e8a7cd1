package dev.engram.spi;

import java.util.List;

/**
 * Turns text into vectors. Implementations are thread-safe, return L2-normalised vectors of {@link #dimension()}
 * floats, and may block (in-process inference or a network call).
 */
public interface Embedder {
  /** A stable id of the model, recorded in the data directory (for example {@code bge-small-en-v1.5-q}). */
  String modelId();

  /** The length of every vector this embedder returns. */
  int dimension();

  /** Embeds a search query (some models prefix queries with an instruction). */
  float[] embedQuery(String text);

  /** Embeds stored texts, in order, one vector per text. */
  List<float[]> embedDocuments(List<String> texts);
}

package dev.engram.testing;

import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The frame of the deterministic test embedders (fakes: no model runs) that build a vector from a
 * text's words: the model id and dimension, queries and documents embedded alike, and the words of
 * a text (lower-cased, split on anything but letters and digits). A subclass says what a text's
 * vector is.
 */
abstract class WordEmbedder implements Embedder {
  private final String modelId;
  final int dimension;

  WordEmbedder(String modelId, int dimension) {
    this.modelId = modelId;
    this.dimension = dimension;
  }

  /** The vector of {@code text}, the same for a query and a document. */
  abstract float[] embed(String text);

  /**
   * The lower-cased words of {@code text} (an empty first one where it starts with a separator).
   */
  static String[] words(String text) {
    return text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+");
  }

  /** The sum of the squares of {@code v}'s components. */
  static double squaredNorm(float[] v) {
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    return norm;
  }

  @Override
  public final String modelId() {
    return modelId;
  }

  @Override
  public final int dimension() {
    return dimension;
  }

  @Override
  public final float[] embedQuery(String text) {
    return embed(text);
  }

  @Override
  public final List<float[]> embedDocuments(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      out.add(embed(t));
    }
    return out;
  }
}

package dev.engram.testing;

import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A deterministic test embedder (a fake: no model runs) that knows synonyms: each lower-cased word named in its map
 * adds one to its topic's axis, other words count for nothing, and a text with no known word lies on the last axis.
 * So "holiday" and "vacation" can be near each other while sharing no word, which a keyword search cannot see.
 * Vectors are L2-normalised.
 */
public final class TopicEmbedder implements Embedder {
  private final Map<String, Integer> topicOfWord;
  private final int dimension;

  /** {@code topicOfWord} maps words to axes below {@code dimension - 1}; the last axis is for texts of none. */
  public TopicEmbedder(Map<String, Integer> topicOfWord, int dimension) {
    this.topicOfWord = Map.copyOf(topicOfWord);
    this.dimension = dimension;
  }

  @Override
  public String modelId() {
    return "test-topics-" + dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[] embedQuery(String text) {
    return embed(text);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    texts.forEach(t -> out.add(embed(t)));
    return out;
  }

  private float[] embed(String text) {
    float[] v = new float[dimension];
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      Integer topic = topicOfWord.get(w);
      if (topic != null) {
        v[topic] += 1f;
      }
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    if (norm == 0) {
      v[dimension - 1] = 1f;
      return v;
    }
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return v;
  }
}

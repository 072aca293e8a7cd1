package dev.engram.testing;

import java.util.Map;

/**
 * A deterministic test embedder (a fake: no model runs) that knows synonyms: each lower-cased word
 * named in its map adds one to its topic's axis, other words count for nothing, and a text with no
 * known word lies on the last axis. So "holiday" and "vacation" can be near each other while
 * sharing no word, which a keyword search cannot see. Vectors are L2-normalised.
 */
public final class TopicEmbedder extends WordEmbedder {
  private final Map<String, Integer> topicOfWord;

  /**
   * {@code topicOfWord} maps words to axes below {@code dimension - 1}; the last axis is for texts
   * of none.
   */
  public TopicEmbedder(Map<String, Integer> topicOfWord, int dimension) {
    super("test-topics-" + dimension, dimension);
    this.topicOfWord = Map.copyOf(topicOfWord);
  }

  @Override
  float[] embed(String text) {
    float[] v = new float[dimension];
    for (String w : words(text)) {
      Integer topic = topicOfWord.get(w);
      if (topic != null) {
        v[topic] += 1f;
      }
    }
    double norm = squaredNorm(v);
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

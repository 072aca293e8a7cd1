package dev.engram.bench.locomo;

import dev.engram.spi.Embedder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A test embedder whose cosines can be worked out by hand (a fake: no model): component i is 1 if
 * the text contains the i-th vocabulary word (lower-cased, split on non-letters), else 0; the
 * vector is L2-normalised, and a text without any vocabulary word gets the zero vector.
 */
final class WordEmbedder implements Embedder {
  private final List<String> vocabulary;

  WordEmbedder(String... vocabulary) {
    this.vocabulary = List.of(vocabulary);
  }

  @Override
  public String modelId() {
    return "test-words-" + vocabulary.size();
  }

  @Override
  public int dimension() {
    return vocabulary.size();
  }

  @Override
  public float[] embedQuery(String text) {
    return embed(text);
  }

  @Override
  public List<float[]> embedDocuments(List<String> texts) {
    List<float[]> out = new ArrayList<>();
    texts.forEach(t -> out.add(embed(t)));
    return out;
  }

  private float[] embed(String text) {
    Set<String> words =
        new HashSet<>(Arrays.asList(text.toLowerCase(Locale.ROOT).split("[^\\p{L}]+")));
    float[] v = new float[vocabulary.size()];
    int n = 0;
    for (int i = 0; i < v.length; i++) {
      if (words.contains(vocabulary.get(i))) {
        v[i] = 1f;
        n++;
      }
    }
    if (n > 0) {
      for (int i = 0; i < v.length; i++) {
        v[i] /= (float) Math.sqrt(n);
      }
    }
    return v;
  }
}

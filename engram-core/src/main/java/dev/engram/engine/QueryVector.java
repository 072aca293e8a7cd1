package dev.engram.engine;

/**
 * A search's query embedding, set once computed: a search creates its {@link RankingPass} before it
 * embeds the query, so that the keyword lists, which need only the query's words, can be read on
 * another thread meanwhile ({@link QueryEmbeddings}); every step that reads the vector runs after
 * it was set. Thread-safe.
 */
final class QueryVector {
  private volatile float[] vector;

  private QueryVector() {}

  /** A vector not computed yet. */
  static QueryVector pending() {
    return new QueryVector();
  }

  /** Sets the computed vector, once. */
  void set(float[] computed) {
    if (vector != null) {
      throw new IllegalStateException("the query's vector was set already");
    }
    vector = computed;
  }

  /**
   * The vector.
   *
   * @throws IllegalStateException if it is read before it was set: a step's keyword hook ({@link
   *     RankingStep#keyword}) may read only the query's words
   */
  float[] get() {
    float[] v = vector;
    if (v == null) {
      throw new IllegalStateException(
          "the query's vector was read before it was computed: keyword lists read only the query's words");
    }
    return v;
  }
}

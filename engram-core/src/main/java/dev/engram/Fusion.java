package dev.engram;

/** How the dense and the keyword result lists are combined into one ranking. */
public enum Fusion {
  /**
   * Reciprocal rank fusion: each list adds {@code 1 / (60 + rank)}; the sum is divided by its
   * maximum so that the final score lies in [0,1].
   */
  RRF,
  /**
   * Normalised score fusion: {@code 0.7 * cosine + 0.3 * bm25 / max(bm25)} over the candidates, in
   * [0,1].
   */
  WEIGHTED,
  /**
   * Cosine-led score fusion: {@code 0.85 * cosine + 0.15 * bm25 / max(bm25)} over the candidates,
   * in [0,1], every candidate with its embedding's true cosine to the query (one only the keyword
   * list found has its cosine read from its stored embedding, where {@link #WEIGHTED} counts 0).
   * The embedding decides the order; the keyword score separates memories the embedding finds about
   * as near. The graph's relations are fused by {@link #RRF} under it.
   */
  COSINE;

  /**
   * What an engine fuses with unless configured otherwise: {@link #COSINE}, which on the LoCoMo and
   * BEAM samples finds more evidence with raw turns and extracted facts than {@link #RRF}
   * (docs/benchmarks/log.md, "Cosine-led fusion"); but {@link #RRF} with context embeddings ({@code
   * Engram.Builder#contextEmbeddings}), whose dense list joins the fused ranking by reciprocal
   * ranks: on RRF's scale that list counts as one signal, on the cosine fusion's narrow range of
   * scores it would decide the order alone, and the best mode found less evidence under {@link
   * #COSINE} on both samples (BEAM 0.725 against 0.743, LoCoMo multi-hop 0.896 against 0.905 at
   * 1,500 tokens).
   *
   * @param contextEmbeddings whether the engine embeds its memories' source contexts
   */
  public static Fusion defaultFor(boolean contextEmbeddings) {
    return contextEmbeddings ? RRF : COSINE;
  }
}

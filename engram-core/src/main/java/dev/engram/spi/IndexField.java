package dev.engram.spi;

/**
 * What a {@link SearchIndex} search reads of each memory: its own text or the source context it was
 * drawn from. Each field has words, searched by {@link SearchIndex#keyword}, and an embedding,
 * searched by {@link SearchIndex#dense} where the index keeps it ({@link SearchIndex#denseFields}).
 */
public enum IndexField {
  /** The memory text ({@code item().text()}) and its embedding ({@link StoredMemory#embedding}). */
  TEXT,
  /**
   * The memory's source context ({@link StoredMemory#context}) and its context embedding (that
   * context's embedding plus half the memory's own: {@link StoredMemory#contextEmbedding}); a
   * memory without one is never found by this field.
   */
  CONTEXT;

  /**
   * The words of this field of {@code memory}: its text or its source context ({@code ""} when
   * unknown).
   */
  public String words(StoredMemory memory) {
    return switch (this) {
      case TEXT -> memory.item().text();
      case CONTEXT -> memory.context();
    };
  }

  /**
   * The embedding of this field of {@code memory}, not copied (the caller must not change it);
   * empty for a memory without a context embedding.
   */
  public float[] embeddingView(StoredMemory memory) {
    return switch (this) {
      case TEXT -> memory.embeddingView();
      case CONTEXT -> memory.contextEmbeddingView();
    };
  }
}

package dev.engram.spi;

import dev.engram.MemoryItem;
import java.util.Objects;

/**
 * A memory as a store holds it: the item, its tenant, its embedding, its source context and, when
 * the engine embeds contexts, the embedding of its context. The arrays are copied in and out.
 *
 * @param tenant the tenant that owns it
 * @param item the memory
 * @param embedding the embedding of the memory text
 * @param context the words of the conversation the memory was drawn from: its source messages and
 *     the message before them, as the engine wrote them when the memory was added ({@code ""} when
 *     unknown, as for a memory stored before this existed). Kept with the memory, so a rebuilt
 *     index has it; searched by keyword ({@link IndexField#CONTEXT}); never returned by the API
 * @param contextEmbedding the embedding of the context plus half the memory's own embedding,
 *     normalised, or the embedding of the passage of a long message that holds the memory ({@link
 *     IndexField#CONTEXT}); an empty array when the engine does not embed contexts or the memory
 *     has no context
 */
// Vectors are float[] on purpose (no boxing on the search and write paths); a stored memory is
// carried, never
// compared by equals.
@SuppressWarnings("ArrayRecordComponent")
public record StoredMemory(
    String tenant, MemoryItem item, float[] embedding, String context, float[] contextEmbedding) {
  private static final float[] NONE = new float[0];

  public StoredMemory {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(item, "item");
    embedding = Objects.requireNonNull(embedding, "embedding").clone();
    Objects.requireNonNull(context, "context");
    contextEmbedding = Objects.requireNonNull(contextEmbedding, "contextEmbedding").clone();
    if (contextEmbedding.length > 0 && context.isEmpty()) {
      throw new IllegalArgumentException(
          "a memory without a source context has no context embedding");
    }
  }

  /** A memory with a source context that is not embedded. */
  public StoredMemory(String tenant, MemoryItem item, float[] embedding, String context) {
    this(tenant, item, embedding, context, NONE);
  }

  /** A memory without a source context. */
  public StoredMemory(String tenant, MemoryItem item, float[] embedding) {
    this(tenant, item, embedding, "");
  }

  @Override
  public float[] embedding() {
    return embedding.clone();
  }

  /** The embedding without a copy; callers must not modify it. */
  public float[] embeddingView() {
    return embedding;
  }

  @Override
  public float[] contextEmbedding() {
    return contextEmbedding.clone();
  }

  /**
   * The context embedding without a copy (empty when there is none); callers must not modify it.
   */
  public float[] contextEmbeddingView() {
    return contextEmbedding;
  }

  /** This memory with another embedding (copied in), the same context embedding. */
  public StoredMemory withEmbedding(float[] vector) {
    return new StoredMemory(tenant, item, vector, context, contextEmbedding);
  }

  /** This memory with another context embedding (copied in; empty for none). */
  public StoredMemory withContextEmbedding(float[] vector) {
    return new StoredMemory(tenant, item, embedding, context, vector);
  }

  /** This memory with another item, the same embeddings and context. */
  public StoredMemory withItem(MemoryItem value) {
    return new StoredMemory(tenant, value, embedding, context, contextEmbedding);
  }

  public String id() {
    return item.id();
  }
}

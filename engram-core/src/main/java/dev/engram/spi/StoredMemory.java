package dev.engram.spi;

import dev.engram.MemoryItem;
import java.util.Objects;

/**
 * A memory as a store holds it: the item, its tenant, its embedding and its source context. The embedding array is
 * copied in and out.
 *
 * @param tenant    the tenant that owns it
 * @param item      the memory
 * @param embedding the embedding of the memory text
 * @param context   the words of the conversation the memory was drawn from: its source messages and the message
 *                  before them, as the engine wrote them when the memory was added ({@code ""} when unknown, as for
 *                  a memory stored before this existed). Kept with the memory, so a rebuilt index has it; searched by
 *                  keyword only ({@link SearchIndex#contextKeyword}); never returned by the API
 */
public record StoredMemory(String tenant, MemoryItem item, float[] embedding, String context) {
  public StoredMemory {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(item, "item");
    embedding = Objects.requireNonNull(embedding, "embedding").clone();
    Objects.requireNonNull(context, "context");
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

  /** This memory with another embedding (copied in). */
  public StoredMemory withEmbedding(float[] vector) {
    return new StoredMemory(tenant, item, vector, context);
  }

  /** This memory with another item, the same embedding and context. */
  public StoredMemory withItem(MemoryItem value) {
    return new StoredMemory(tenant, value, embedding, context);
  }

  public String id() {
    return item.id();
  }
}

package dev.engram.spi;

import dev.engram.MemoryItem;
import java.util.Objects;

/**
 * A memory as a store holds it: the item, its tenant and its embedding. The embedding array is copied in and out.
 *
 * @param tenant    the tenant that owns it
 * @param item      the memory
 * @param embedding the embedding of the memory text
 */
public record StoredMemory(String tenant, MemoryItem item, float[] embedding) {
  public StoredMemory {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(item, "item");
    embedding = Objects.requireNonNull(embedding, "embedding").clone();
  }

  @Override
  public float[] embedding() {
    return embedding.clone();
  }

  /** The embedding without a copy; callers must not modify it. */
  public float[] embeddingView() {
    return embedding;
  }

  public String id() {
    return item.id();
  }
}

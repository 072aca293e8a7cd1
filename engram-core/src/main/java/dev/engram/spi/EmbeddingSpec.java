package dev.engram.spi;

import java.util.Objects;

/**
 * The embedding model a data directory was written with.
 *
 * @param modelId the embedder's model id
 * @param dimension the vector length
 */
public record EmbeddingSpec(String modelId, int dimension) {
  public EmbeddingSpec {
    Objects.requireNonNull(modelId, "modelId");
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive, got " + dimension);
    }
  }
}

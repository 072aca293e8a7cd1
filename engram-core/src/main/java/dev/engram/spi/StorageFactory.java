package dev.engram.spi;

/**
 * Opens a {@link Storage} for the embedding model the memory is configured with. {@code
 * Engram.builder()} calls it once, in {@code build()}, after the settings were checked and the
 * embedder chosen, so the embedder is configured in one place and the storage learns its model name
 * and dimension from it. The storage returned belongs to the memory being built: it is closed when
 * that memory is closed, or at once if {@code build()} fails afterwards.
 *
 * <p>Examples: {@code EmbeddedStorage.at(path)} (engram-embedded), {@code
 * PostgresStorage.with(settings)} (engram-postgres), or a lambda {@code spec ->
 * MyStorage.open(spec.dimension())}.
 */
@FunctionalInterface
public interface StorageFactory {
  /**
   * Opens the storage for vectors of {@code embedding.dimension()} floats written by {@code
   * embedding.modelId()}.
   *
   * @throws dev.engram.ValidationException if a setting of the storage is invalid (naming it)
   * @throws dev.engram.EngramException (or a subclass) if the storage cannot be opened
   */
  Storage open(EmbeddingSpec embedding);
}

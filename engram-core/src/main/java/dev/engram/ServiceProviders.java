package dev.engram;

import dev.engram.spi.DefaultEmbedderProvider;
import dev.engram.spi.EmbeddedStorageProvider;
import dev.engram.spi.Embedder;
import java.util.ServiceLoader;

/**
 * Finds the defaults that live in other modules ({@link ServiceLoader}, the class loader of the
 * core).
 */
final class ServiceProviders {
  private ServiceProviders() {}

  /** The embedded storage of {@code engram-embedded}. */
  static EmbeddedStorageProvider embeddedStorage() {
    return ServiceLoader.load(
            EmbeddedStorageProvider.class, ServiceProviders.class.getClassLoader())
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the embedded storage is not on the class path: add the "
                        + "dependency dev.engram:engram-embedded"));
  }

  /**
   * The default embedder of {@code engram-onnx}.
   *
   * @throws ValidationException naming {@code embedder} if it is not on the class path
   */
  static Embedder defaultEmbedder() {
    return ServiceLoader.load(
            DefaultEmbedderProvider.class, ServiceProviders.class.getClassLoader())
        .findFirst()
        .map(DefaultEmbedderProvider::defaultEmbedder)
        .orElseThrow(
            () ->
                new ValidationException(
                    "embedder",
                    "is required: configure one, or add the dependency "
                        + "dev.engram:engram-onnx for the default in-process embedder"));
  }
}

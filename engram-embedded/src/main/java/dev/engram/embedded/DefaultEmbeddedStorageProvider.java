package dev.engram.embedded;

import dev.engram.spi.EmbeddedStorageProvider;
import dev.engram.spi.StorageFactory;
import java.nio.file.Path;

/**
 * Registers {@link EmbeddedStorage#at} as the embedded default storage of {@code
 * Engram.embedded(Path)} (found with {@link java.util.ServiceLoader}).
 */
public final class DefaultEmbeddedStorageProvider implements EmbeddedStorageProvider {
  /** For {@link java.util.ServiceLoader}. */
  public DefaultEmbeddedStorageProvider() {}

  @Override
  public StorageFactory at(Path dataDir) {
    return EmbeddedStorage.at(dataDir);
  }
}

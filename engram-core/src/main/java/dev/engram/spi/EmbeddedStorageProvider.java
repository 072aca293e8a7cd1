package dev.engram.spi;

import java.nio.file.Path;

/**
 * Found with {@link java.util.ServiceLoader}: the embedded default storage (one implementation, in
 * {@code engram-embedded}). {@code Engram.embedded(Path)} uses it, so that the core, which does not
 * depend on SQLite or Lucene, can open the embedded default in one call when {@code
 * engram-embedded} is on the class path.
 */
public interface EmbeddedStorageProvider {
  /**
   * A factory opening (creating if needed) the data directory {@code dataDir} with default
   * durability.
   */
  StorageFactory at(Path dataDir);
}

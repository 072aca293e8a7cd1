package dev.engram.embedded;

import dev.engram.spi.Storage;
import dev.engram.testing.MemoryStoreContract;
import java.nio.file.Path;

/** The MemoryStore contract on the embedded backend: SQLite record and Lucene index. */
class EmbeddedMemoryStoreContractTest extends MemoryStoreContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return EmbeddedStorage.open(dir, dimension);
  }
}

package dev.engram.memory;

import dev.engram.spi.Storage;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.MemoryStoreContract;
import java.nio.file.Path;

/** The MemoryStore contract on the in-memory reference backend. */
class InMemoryMemoryStoreContractTest extends MemoryStoreContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return InMemoryStorage.open(dir);
  }
}

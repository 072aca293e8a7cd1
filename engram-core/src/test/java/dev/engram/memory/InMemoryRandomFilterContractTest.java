package dev.engram.memory;

import dev.engram.spi.Storage;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.RandomFilterContract;
import java.nio.file.Path;

/** The RandomFilter contract on the in-memory reference backend. */
class InMemoryRandomFilterContractTest extends RandomFilterContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return InMemoryStorage.open(dir);
  }
}

package dev.engram.memory;

import dev.engram.spi.Storage;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.MemoryContractTest;
import java.nio.file.Path;

/** The whole engine contract ({@link MemoryContractTest}) on the in-memory reference backend. */
class InMemoryMemoryContractTest extends MemoryContractTest {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return InMemoryStorage.open(dir);
  }

  @Override
  protected void damageIndex(Path dir) {
    InMemoryStorage.damageIndex(dir);
  }
}

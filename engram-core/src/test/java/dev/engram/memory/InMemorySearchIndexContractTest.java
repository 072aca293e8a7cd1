package dev.engram.memory;

import dev.engram.spi.Storage;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/** The SearchIndex contract on the in-memory reference backend. */
class InMemorySearchIndexContractTest extends SearchIndexContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return InMemoryStorage.open(dir);
  }
}

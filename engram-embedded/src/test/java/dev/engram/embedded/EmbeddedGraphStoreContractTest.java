package dev.engram.embedded;

import dev.engram.spi.GraphStore;
import dev.engram.testing.GraphStoreContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph store contract on the embedded storage's graph (the SQLite record of a data directory).
 */
class EmbeddedGraphStoreContractTest extends GraphStoreContractTest {
  @TempDir Path dir;
  private EmbeddedStorage storage;

  @Override
  protected GraphStore openStore() {
    storage = EmbeddedStorage.open(dir.resolve("data"), DIMENSION);
    return storage.graph().orElseThrow();
  }

  @Override
  protected void closeStore(GraphStore s) throws Exception {
    storage.close();
  }
}

package dev.engram.postgres;

import dev.engram.spi.GraphStore;
import dev.engram.testing.GraphStoreContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The graph store contract on PostgreSQL, one schema per test. */
class PostgresGraphStoreContractTest extends GraphStoreContractTest {
  @TempDir Path dir;
  private PostgresStorage storage;

  @Override
  protected GraphStore openStore() {
    storage = PostgresStorage.open(PostgresCluster.get().settingsFor(dir), DIMENSION);
    return storage.graph().orElseThrow();
  }

  @Override
  protected void closeStore(GraphStore s) {
    storage.close();
  }
}

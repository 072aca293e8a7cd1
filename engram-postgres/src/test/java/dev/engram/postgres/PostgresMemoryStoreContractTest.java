package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.MemoryStoreContract;
import java.nio.file.Path;

/** The MemoryStore contract on PostgreSQL (exact vector path), one schema per test. */
class PostgresMemoryStoreContractTest extends MemoryStoreContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PostgresCluster.get().settingsFor(dir), dimension);
  }
}

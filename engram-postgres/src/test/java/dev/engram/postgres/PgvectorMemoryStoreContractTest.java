package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.MemoryStoreContract;
import java.nio.file.Path;

/** The MemoryStore contract on the pgvector path, on PGlite (pool of one), one schema per test. */
class PgvectorMemoryStoreContractTest extends MemoryStoreContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PgliteServer.get().settingsFor(dir), dimension);
  }
}

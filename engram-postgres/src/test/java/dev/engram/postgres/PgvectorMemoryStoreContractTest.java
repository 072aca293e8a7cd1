package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.MemoryStoreContract;
import java.nio.file.Path;

/** The MemoryStore contract on the pgvector path, on PGlite (pool of one), one schema per test. */
class PgvectorMemoryStoreContractTest extends MemoryStoreContract {
  /**
   * PGlite; {@link NativePgvectorMemoryStoreContractTest} runs these tests on native PostgreSQL 15.
   */
  PgvectorServer server() {
    return PgvectorServer.PGLITE;
  }

  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(server().settingsFor(dir), dimension);
  }
}

package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.MemoryContractTest;
import java.nio.file.Path;

/**
 * The whole engine contract ({@link MemoryContractTest}) on the pgvector path, on PGlite (pool of
 * one).
 */
class PgvectorMemoryContractTest extends MemoryContractTest {
  /** PGlite; {@link NativePgvectorMemoryContractTest} runs these tests on native PostgreSQL 15. */
  PgvectorServer server() {
    return PgvectorServer.PGLITE;
  }

  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(server().settingsFor(dir), dimension);
  }

  /** Nothing to damage: the index is the record ({@code SearchIndex.isDerived()} is false). */
  @Override
  protected void damageIndex(Path dir) {}
}

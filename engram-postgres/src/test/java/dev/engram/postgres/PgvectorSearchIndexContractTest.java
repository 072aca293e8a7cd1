package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/** The SearchIndex contract on the pgvector path, on PGlite (pool of one), one schema per test. */
class PgvectorSearchIndexContractTest extends SearchIndexContract {
  /**
   * PGlite; {@link NativePgvectorSearchIndexContractTest} runs these tests on native PostgreSQL 15.
   */
  PgvectorServer server() {
    return PgvectorServer.PGLITE;
  }

  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(server().settingsFor(dir), dimension);
  }
}

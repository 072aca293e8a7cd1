package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/**
 * The SearchIndex contract on the pgvector path with every dense search through the HNSW index
 * (limit 0).
 */
class PgvectorIndexOnlyContractTest extends SearchIndexContract {
  /**
   * PGlite; {@link NativePgvectorIndexOnlyContractTest} runs these tests on native PostgreSQL 15.
   */
  PgvectorServer server() {
    return PgvectorServer.PGLITE;
  }

  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(
        server().settingsFor(dir).toBuilder().exactSearchLimit(0).build(), dimension);
  }
}

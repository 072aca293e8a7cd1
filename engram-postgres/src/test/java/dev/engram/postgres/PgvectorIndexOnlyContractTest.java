package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/** The SearchIndex contract on the pgvector path with every dense search through the HNSW index (limit 0). */
class PgvectorIndexOnlyContractTest extends SearchIndexContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PgliteServer.get().settingsFor(dir).toBuilder().exactSearchLimit(0).build(),
        dimension);
  }
}

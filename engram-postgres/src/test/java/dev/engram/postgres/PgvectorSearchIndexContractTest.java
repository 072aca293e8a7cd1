package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/** The SearchIndex contract on the pgvector path, on PGlite (pool of one), one schema per test. */
class PgvectorSearchIndexContractTest extends SearchIndexContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PgliteServer.get().settingsFor(dir), dimension);
  }
}

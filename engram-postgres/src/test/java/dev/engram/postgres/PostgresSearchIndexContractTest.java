package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/**
 * The SearchIndex contract on PostgreSQL (exact vector path, embedding cache on by default), one
 * schema per test.
 */
class PostgresSearchIndexContractTest extends SearchIndexContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PostgresCluster.get().settingsFor(dir), dimension);
  }
}

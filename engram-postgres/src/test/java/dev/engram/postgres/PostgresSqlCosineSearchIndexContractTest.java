package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/**
 * The SearchIndex contract on PostgreSQL's plain-array path with the embedding cache off ({@code
 * vector_cache_mb: 0}): cosines computed in SQL. {@link PostgresSearchIndexContractTest} runs it
 * with the cache (the default).
 */
class PostgresSqlCosineSearchIndexContractTest extends SearchIndexContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(
        PostgresCluster.get().settingsFor(dir).toBuilder().vectorCacheMb(0).build(), dimension);
  }
}

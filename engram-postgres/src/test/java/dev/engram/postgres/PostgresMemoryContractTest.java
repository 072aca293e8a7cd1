package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.MemoryContractTest;
import java.nio.file.Path;

/**
 * The whole engine contract ({@link MemoryContractTest}) on PostgreSQL, exact vector path. Each
 * test's directory names its own schema, so a reopen finds the same data.
 */
class PostgresMemoryContractTest extends MemoryContractTest {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PostgresCluster.get().settingsFor(dir), dimension);
  }

  /** Nothing to damage: the index is the record ({@code SearchIndex.isDerived()} is false). */
  @Override
  protected void damageIndex(Path dir) {}
}

package dev.engram.postgres;

import dev.engram.spi.Storage;
import dev.engram.testing.RandomFilterContract;
import java.nio.file.Path;

/**
 * The SQL filter translation against FilterEvaluator on random memories and filters
 * (-Dengram.seed).
 */
class PostgresRandomFilterContractTest extends RandomFilterContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return PostgresStorage.open(PostgresCluster.get().settingsFor(dir), dimension);
  }

  /** PostgreSQL's text and JSON are UTF-8 and cannot hold an unpaired surrogate. */
  @Override
  protected boolean keepsUnpairedSurrogates() {
    return false;
  }

  /** float8 comparison treats -0.0 and 0.0 as equal (as SQLite does). */
  @Override
  protected boolean distinguishesNegativeZero() {
    return false;
  }
}

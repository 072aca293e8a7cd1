package dev.engram.embedded;

import dev.engram.spi.Storage;
import dev.engram.testing.RandomFilterContract;
import java.nio.file.Path;

/** The RandomFilter contract on the embedded backend: SQLite record and Lucene index. */
class EmbeddedRandomFilterContractTest extends RandomFilterContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return EmbeddedStorage.open(dir, dimension);
  }

  /** sqlite-jdbc passes strings to SQLite as UTF-8, which turns an unpaired surrogate into '?'. */
  @Override
  protected boolean keepsUnpairedSurrogates() {
    return false;
  }

  /** SQLite compares -0.0 and 0.0 as equal numbers (documented in {@code FilterSql}). */
  @Override
  protected boolean distinguishesNegativeZero() {
    return false;
  }
}

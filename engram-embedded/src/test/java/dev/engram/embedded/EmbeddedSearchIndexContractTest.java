package dev.engram.embedded;

import dev.engram.spi.Storage;
import dev.engram.testing.SearchIndexContract;
import java.nio.file.Path;

/** The SearchIndex contract on the embedded backend: SQLite record and Lucene index. */
class EmbeddedSearchIndexContractTest extends SearchIndexContract {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return EmbeddedStorage.open(dir, dimension);
  }

  @Override
  protected boolean answersSimilarities() {
    return true;
  }
}

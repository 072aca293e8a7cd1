package dev.engram.sqlite;

import dev.engram.spi.GraphStore;
import dev.engram.testing.GraphStoreContractTest;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The graph store contract on the SQLite record. */
class SqliteGraphStoreContractTest extends GraphStoreContractTest {
  @TempDir Path dir;
  private SqliteMemoryStore sqlite;

  @Override
  protected GraphStore openStore() {
    sqlite = SqliteMemoryStore.open(dir.resolve("engram.db"), Durability.NORMAL);
    return sqlite.graph();
  }

  @Override
  protected void closeStore(GraphStore s) {
    sqlite.close();
  }
}

package dev.engram.mcp;

import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;

/**
 * Real embedded memories for the tests: SQLite and Lucene in a data directory, hash embedder,
 * offline graph on.
 */
final class TestMemories {
  static final int DIMENSION = 64;

  private TestMemories() {}

  static Memory open(Path dataDir) {
    return open(dataDir, true);
  }

  static Memory open(Path dataDir, boolean graph) {
    Engram.Builder b =
        Engram.builder()
            .storage(EmbeddedStorage.open(dataDir, DIMENSION))
            .embedder(new HashEmbedder());
    if (graph) {
      b.graph(OfflineGraphExtractor.create());
    }
    return b.build();
  }
}

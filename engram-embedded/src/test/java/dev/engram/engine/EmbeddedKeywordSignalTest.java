package dev.engram.engine;

import dev.engram.Engram;
import dev.engram.embedded.EmbeddedStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** {@link KeywordSignalTest} on the real embedded store: BM25 in Lucene (English analyzer). */
class EmbeddedKeywordSignalTest extends KeywordSignalTest {
  @TempDir Path dir;

  @Override
  Engram.Builder storage(Engram.Builder builder) {
    return builder.storage(EmbeddedStorage.at(dir.resolve("store")));
  }
}

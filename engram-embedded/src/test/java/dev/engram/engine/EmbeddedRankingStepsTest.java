package dev.engram.engine;

import dev.engram.Engram;
import dev.engram.embedded.EmbeddedStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RankingStepsTest} on the real embedded store: the neighbours' {@code source_id} filter,
 * the dates' {@code event_time} ranges and the feedback search run in Lucene, the records come from
 * SQLite.
 */
class EmbeddedRankingStepsTest extends RankingStepsTest {
  @TempDir Path dir;

  @Override
  Engram.Builder storage(Engram.Builder builder, String name) {
    return builder.storage(EmbeddedStorage.at(dir.resolve(name)));
  }

  @Override
  boolean hasGraph() {
    return true;
  }
}

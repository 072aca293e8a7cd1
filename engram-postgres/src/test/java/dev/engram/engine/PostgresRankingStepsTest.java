package dev.engram.engine;

import dev.engram.Engram;
import dev.engram.postgres.PostgresCluster;
import dev.engram.postgres.PostgresStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RankingStepsTest} on PostgreSQL (plain-array path, one schema per test): the records, the
 * source contexts and every search of the ranking steps (the context step's keyword search of the
 * source contexts, the neighbours' {@code source_id} filter, the dates' {@code event_time} ranges)
 * run in the database.
 */
class PostgresRankingStepsTest extends RankingStepsTest {
  @TempDir Path dir;

  @Override
  Engram.Builder storage(Engram.Builder builder, String name) {
    return builder.storage(
        PostgresStorage.with(PostgresCluster.get().settingsFor(dir.resolve(name))));
  }

  @Override
  boolean hasGraph() {
    return true;
  }
}

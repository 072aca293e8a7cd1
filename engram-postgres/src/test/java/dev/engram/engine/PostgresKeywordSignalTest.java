package dev.engram.engine;

import dev.engram.Engram;
import dev.engram.postgres.PostgresCluster;
import dev.engram.postgres.PostgresStorage;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KeywordSignalTest} on PostgreSQL: the keyword search is its text search ({@code english},
 * one schema).
 */
class PostgresKeywordSignalTest extends KeywordSignalTest {
  @TempDir Path dir;

  @Override
  Engram.Builder storage(Engram.Builder builder) {
    return builder.storage(
        PostgresStorage.with(PostgresCluster.get().settingsFor(dir.resolve("store"))));
  }
}

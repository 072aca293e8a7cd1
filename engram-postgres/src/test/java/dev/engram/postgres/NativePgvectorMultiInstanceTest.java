package dev.engram.postgres;

import java.nio.file.Path;

/**
 * {@link PostgresMultiInstanceTest} on the pgvector path (native PostgreSQL 15 with pgvector
 * 0.8.0).
 */
class NativePgvectorMultiInstanceTest extends PostgresMultiInstanceTest {
  @Override
  PostgresSettings settingsFor(Path dir) {
    return PostgresCluster.get().pgvectorSettingsFor(dir);
  }
}

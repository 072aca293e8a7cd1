package dev.engram.postgres;

/**
 * {@link PgvectorIndexPathTest} on native PostgreSQL 15 with pgvector 0.8.0, pool of several
 * connections.
 */
class NativePgvectorIndexPathTest extends PgvectorIndexPathTest {
  @Override
  PgvectorServer server() {
    return PgvectorServer.NATIVE;
  }
}

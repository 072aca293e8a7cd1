package dev.engram.postgres;

/**
 * {@link PgvectorSearchIndexContractTest} on native PostgreSQL 15 with pgvector 0.8.0, pool of
 * several connections.
 */
class NativePgvectorSearchIndexContractTest extends PgvectorSearchIndexContractTest {
  @Override
  PgvectorServer server() {
    return PgvectorServer.NATIVE;
  }
}

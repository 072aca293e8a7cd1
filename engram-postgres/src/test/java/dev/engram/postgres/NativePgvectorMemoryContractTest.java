package dev.engram.postgres;

/**
 * {@link PgvectorMemoryContractTest} on native PostgreSQL 15 with pgvector 0.8.0, pool of several
 * connections.
 */
class NativePgvectorMemoryContractTest extends PgvectorMemoryContractTest {
  @Override
  PgvectorServer server() {
    return PgvectorServer.NATIVE;
  }
}

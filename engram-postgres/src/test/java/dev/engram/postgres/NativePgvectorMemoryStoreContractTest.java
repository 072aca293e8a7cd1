package dev.engram.postgres;

/**
 * {@link PgvectorMemoryStoreContractTest} on native PostgreSQL 15 with pgvector 0.8.0, pool of
 * several connections.
 */
class NativePgvectorMemoryStoreContractTest extends PgvectorMemoryStoreContractTest {
  @Override
  PgvectorServer server() {
    return PgvectorServer.NATIVE;
  }
}

package dev.engram.postgres;

/**
 * {@link PgvectorIndexOnlyContractTest} on native PostgreSQL 15 with pgvector 0.8.0, pool of
 * several connections.
 */
class NativePgvectorIndexOnlyContractTest extends PgvectorIndexOnlyContractTest {
  @Override
  PgvectorServer server() {
    return PgvectorServer.NATIVE;
  }
}

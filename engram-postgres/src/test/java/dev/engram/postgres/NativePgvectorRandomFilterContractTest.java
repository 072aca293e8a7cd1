package dev.engram.postgres;

/**
 * {@link PgvectorRandomFilterContractTest} on native PostgreSQL 15 with pgvector 0.8.0, pool of
 * several connections.
 */
class NativePgvectorRandomFilterContractTest extends PgvectorRandomFilterContractTest {
  @Override
  PgvectorServer server() {
    return PgvectorServer.NATIVE;
  }
}

package dev.engram.neo4j;

import dev.engram.spi.GraphStore;
import dev.engram.testing.GraphStoreContractTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.neo4j.driver.Driver;

/**
 * The shared graph store contract on a real Neo4j 5.26 (in-process harness, started once for the
 * class). Each test gets an empty store: the previous test's tenants are reset first.
 */
class Neo4jGraphStoreContractTest extends GraphStoreContractTest {
  private static TestNeo4j neo4j;
  private static Driver driver;

  @BeforeAll
  static void startNeo4j() {
    neo4j = TestNeo4j.start();
    driver = neo4j.newDriver();
  }

  @AfterAll
  static void stopNeo4j() {
    driver.close();
    neo4j.close();
  }

  @Override
  protected GraphStore openStore() {
    Neo4jGraphStore s = Neo4jGraphStore.open(driver, "neo4j");
    s.reset(T1);
    s.reset(T2);
    return s;
  }

  @Override
  protected void closeStore(GraphStore s) {
    ((Neo4jGraphStore) s).close();
  }
}

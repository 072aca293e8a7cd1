package dev.engram.neo4j;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/**
 * A real Neo4j 5.26 started in-process by the GPL test harness (test scope only), reachable over
 * Bolt on 127.0.0.1 at a free port, with authentication off and a small page cache. Start one per
 * test class (about 4 s on an idle machine) and close it in {@code @AfterAll}. The Bolt server's
 * Netty quiet period (an internal setting) is set to zero: with the default, every shutdown waits
 * about 10 s for event loops that have nothing to do.
 */
final class TestNeo4j implements AutoCloseable {
  private final Neo4j server;

  private TestNeo4j(Neo4j server) {
    this.server = server;
  }

  /** Starts a fresh, empty server with a 64 MB page cache. */
  static TestNeo4j start() {
    return start(64L << 20);
  }

  /** Starts a fresh, empty server with a page cache of this many bytes. */
  static TestNeo4j start(long pageCacheBytes) {
    Neo4j server =
        Neo4jBuilders.newInProcessBuilder()
            .withDisabledServer()
            .withConfig(GraphDatabaseSettings.pagecache_memory, pageCacheBytes)
            .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
            .withConfig(BoltConnector.enabled, true)
            .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", 0))
            .build();
    return new TestNeo4j(server);
  }

  /** The Bolt URI of the server, {@code bolt://127.0.0.1:<port>}. */
  String boltUri() {
    return server.boltURI().toString();
  }

  /** A new driver on the server; the caller closes it. */
  Driver newDriver() {
    Logger.getLogger("org.neo4j.driver").setLevel(Level.WARNING);
    return GraphDatabase.driver(
        boltUri(),
        AuthTokens.none(),
        Config.builder().withoutEncryption().withMaxConnectionPoolSize(8).build());
  }

  @Override
  public void close() {
    server.close();
  }
}

package dev.engram.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Record;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;

/**
 * The packaged {@code engram} command with {@code graph_store.provider: neo4j}, end to end: a real
 * Neo4j 5.26 (in-process through the GPL test harness, authentication on, one server per class), an
 * {@code engram.yaml} naming its Bolt URI, the password only in {@code ENGRAM_NEO4J_PASSWORD}, and
 * {@code java -jar engram.jar} as a child process. The graph is read back through the command and
 * directly with Cypher, and the data directory's SQLite graph tables are checked to stay empty.
 */
class Neo4jGraphStoreCliTest {
  private static final String PASSWORD = "engram-it-n30j-pw";
  private static final ObjectMapper JSON = new ObjectMapper();

  private static Neo4j server;
  private static Driver driver;

  @TempDir Path work;

  @BeforeAll
  static void startNeo4j() {
    server =
        Neo4jBuilders.newInProcessBuilder()
            .withDisabledServer()
            .withConfig(GraphDatabaseSettings.pagecache_memory, 64L << 20)
            .withConfig(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0)
            .withConfig(GraphDatabaseSettings.auth_enabled, true)
            .withConfig(BoltConnector.enabled, true)
            .withConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", 0))
            .build();
    server
        .databaseManagementService()
        .database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME)
        .executeTransactionally(
            "ALTER USER neo4j SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", PASSWORD));
    Logger.getLogger("org.neo4j.driver").setLevel(Level.WARNING);
    driver =
        GraphDatabase.driver(
            boltUri(),
            AuthTokens.basic("neo4j", PASSWORD),
            Config.builder().withoutEncryption().withMaxConnectionPoolSize(2).build());
    driver.verifyConnectivity();
  }

  @AfterAll
  static void stopNeo4j() {
    if (driver != null) {
      driver.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @BeforeEach
  void emptyTheGraph() {
    driver.executableQuery("MATCH (n) DETACH DELETE n").execute();
  }

  private static String boltUri() {
    return server.boltURI().toString();
  }

  /**
   * Writes {@code engram.yaml} into the working directory: data in {@code ./data}, the graph on
   * {@code uri}.
   */
  private void writeConfig(String uri) throws IOException {
    Files.writeString(
        work.resolve("engram.yaml"),
        """
        data_dir: data
        graph_store:
          provider: neo4j
          uri: %s
          user: neo4j
        """
            .formatted(uri));
  }

  private EngramJar engram() {
    return EngramJar.in(work, Map.of("ENGRAM_NEO4J_PASSWORD", PASSWORD));
  }

  private static List<String> column(String cypher, String column) {
    return driver.executableQuery(cypher).execute().records().stream()
        .map(r -> r.get(column).asString())
        .toList();
  }

  private static long count(String cypher) {
    List<Record> records = driver.executableQuery(cypher).execute().records();
    return records.get(0).get(0).asLong();
  }

  /** Rows of a table of the data directory's SQLite file. */
  private long sqliteRows(String table) throws SQLException {
    Path db = work.resolve("data").resolve("engram.db");
    assertThat(db).isRegularFile();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db + "?open_mode=1");
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static List<String> facts(JsonNode relations) {
    List<String> out = new java.util.ArrayList<>();
    relations.forEach(
        r ->
            out.add(
                r.get("source").asText()
                    + " -["
                    + r.get("relationship").asText()
                    + "]-> "
                    + r.get("destination").asText()
                    + " ("
                    + r.get("fact").asText()
                    + ")"));
    return out;
  }

  @Test
  void addsWriteTheGraphToNeo4jAndTheCommandsReadItBack() throws Exception {
    writeConfig(boltUri());
    EngramJar engram = engram();

    EngramJar.Result first =
        engram.ok(
            "add",
            "--user-id",
            "alice",
            "--timestamp",
            "2024-03-01T10:00:00Z",
            "Alice works at Acme");
    assertThat(first.err()).doesNotContain(PASSWORD);
    engram.ok(
        "add", "--user-id", "alice", "--timestamp", "2024-03-02T10:00:00Z", "Bob works at Acme");

    // Relations of one entity come in the store's order of relation ids (random), hence "in any
    // order".
    assertThat(engram.ok("graph", "relations", "--user-id", "alice", "acme").lines())
        .containsExactlyInAnyOrder(
            "Bob -[related_to]-> Acme  (Bob works at Acme)  2024-03-02T10:00:00Z .. now",
            "Alice -[related_to]-> Acme  (Alice works at Acme)  2024-03-01T10:00:00Z .. now");
    JsonNode around =
        JSON.readTree(engram.ok("graph", "around", "--user-id", "alice", "--json", "Alice").out());
    // Nearest first: Alice's own relation (one hop), then Bob's through Acme (two hops).
    assertThat(facts(around.get("relations")))
        .containsExactly(
            "Alice -[related_to]-> Acme (Alice works at Acme)",
            "Bob -[related_to]-> Acme (Bob works at Acme)");
    JsonNode search =
        JSON.readTree(
            engram.ok("search", "--user-id", "alice", "--json", "Where does Bob work?").out());
    assertThat(search.get("results"))
        .extracting(h -> h.get("memory").asText())
        .containsExactlyInAnyOrder("Alice works at Acme", "Bob works at Acme");
    List<String> found = facts(search.get("relations"));
    assertThat(found)
        .containsExactlyInAnyOrder(
            "Alice -[related_to]-> Acme (Alice works at Acme)",
            "Bob -[related_to]-> Acme (Bob works at Acme)");
    assertThat(found.get(0))
        .as("the relation of the entity the query names ranks first")
        .isEqualTo("Bob -[related_to]-> Acme (Bob works at Acme)");

    assertThat(
            column(
                "MATCH (a:Entity)-[r:RELATES]->(b:Entity) RETURN a.name + ' -[' + r.relation + ']-> '"
                    + " + b.name + ' (' + r.fact + ')' AS line ORDER BY line",
                "line"))
        .containsExactly(
            "Alice -[related_to]-> Acme (Alice works at Acme)",
            "Bob -[related_to]-> Acme (Bob works at Acme)");
    assertThat(column("MATCH (e:Entity) RETURN e.name AS name ORDER BY name", "name"))
        .containsExactly("Acme", "Alice", "Bob");
    assertThat(count("MATCH ()-[r:RELATES]->() RETURN count(r)")).isEqualTo(2);
    assertThat(sqliteRows("memories")).isEqualTo(2);
    assertThat(sqliteRows("graph_entities")).isZero();
    assertThat(sqliteRows("graph_relations")).isZero();
  }

  @Test
  void deleteEntityDeleteAllAndResetReachNeo4j() throws Exception {
    writeConfig(boltUri());
    EngramJar engram = engram();
    engram.ok(
        "add", "--user-id", "alice", "--timestamp", "2024-03-01T10:00:00Z", "Alice works at Acme");
    engram.ok(
        "add", "--user-id", "alice", "--timestamp", "2024-03-02T10:00:00Z", "Bob works at Acme");
    engram.ok(
        "add",
        "--user-id",
        "carol",
        "--timestamp",
        "2024-03-03T10:00:00Z",
        "Carol works at Initech");
    assertThat(count("MATCH ()-[r:RELATES]->() RETURN count(r)")).isEqualTo(3);

    assertThat(engram.ok("graph", "delete-entity", "--user-id", "alice", "Bob").out())
        .isEqualTo("deleted 1 entity named 'Bob'" + System.lineSeparator());
    assertThat(
            column(
                "MATCH (a:Entity)-[r:RELATES]->(b:Entity) RETURN a.name + '->' + b.name AS edge"
                    + " ORDER BY edge",
                "edge"))
        .containsExactly("Alice->Acme", "Carol->Initech");
    assertThat(engram.ok("graph", "relations", "--user-id", "alice", "Acme").lines())
        .containsExactly(
            "Alice -[related_to]-> Acme  (Alice works at Acme)  2024-03-01T10:00:00Z .. now");

    assertThat(engram.ok("delete-all", "--user-id", "alice").out())
        .isEqualTo("deleted 2 memories of user_id=alice" + System.lineSeparator());
    assertThat(column("MATCH (e:Entity) RETURN e.name AS name ORDER BY name", "name"))
        .containsExactly("Carol", "Initech");
    assertThat(engram.ok("graph", "relations", "--user-id", "alice", "Acme").out())
        .isEqualTo("no relations" + System.lineSeparator());

    engram.ok("reset", "--yes");
    assertThat(count("MATCH (n) RETURN count(n)")).isZero();
    assertThat(sqliteRows("memories")).isZero();
  }

  @Test
  void wrongPasswordFailsWithTheUriAndNeverPrintsThePassword() throws Exception {
    writeConfig(boltUri());
    String wrong = "not-the-password-4711";
    EngramJar engram = EngramJar.in(work, Map.of("ENGRAM_NEO4J_PASSWORD", wrong));

    EngramJar.Result r = engram.run("add", "--user-id", "alice", "Alice works at Acme");

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err())
        .startsWith(
            "engram add: cannot open the Neo4j graph store at "
                + boltUri()
                + " (graph_store.uri, user 'neo4j', database 'neo4j'): ")
        .contains("unauthorized")
        .doesNotContain(wrong)
        .doesNotContain(PASSWORD);
    assertThat(r.out()).isEmpty();
    assertThat(count("MATCH (n) RETURN count(n)")).isZero();
  }

  @Test
  void unreachableNeo4jFailsWithTheUriAndExitCodeOne() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    String uri = "bolt://127.0.0.1:" + closedPort;
    writeConfig(uri);

    EngramJar.Result r = engram().run("add", "--user-id", "alice", "Alice works at Acme");

    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.err())
        .startsWith(
            "engram add: cannot open the Neo4j graph store at "
                + uri
                + " (graph_store.uri, user 'neo4j', database 'neo4j'): ")
        .contains("Unable to connect")
        .doesNotContain(PASSWORD);
    assertThat(r.out()).isEmpty();
    assertThat(work.resolve("data"))
        .as("nothing is written when the graph store is unreachable")
        .doesNotExist();
  }

  @Test
  void badGraphStoreSettingsExitWithTwoNamingTheKeyAndTheFile() throws Exception {
    Path file = work.resolve("engram.yaml");
    Files.writeString(file, "graph_store:\n  provider: neo4j\n  user: neo4j\n");
    EngramJar.Result noUri = engram().run("add", "--user-id", "alice", "Alice works at Acme");
    assertThat(noUri.exitCode()).isEqualTo(2);
    assertThat(noUri.err()).startsWith("engram add: graph_store.uri: missing in " + file);

    Files.writeString(file, "graph_store:\n  provider: janusgraph\n");
    EngramJar.Result unknown = engram().run("add", "--user-id", "alice", "Alice works at Acme");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err())
        .isEqualTo(
            "engram add: graph_store.provider: unknown value 'janusgraph' in "
                + file
                + " (expected one of embedded, neo4j)"
                + System.lineSeparator());

    writeConfig(boltUri());
    EngramJar.Result noPassword =
        EngramJar.in(work, Map.of()).run("add", "--user-id", "alice", "Alice");
    assertThat(noPassword.exitCode()).isEqualTo(2);
    assertThat(noPassword.err())
        .startsWith(
            "engram add: graph_store.password_env: environment variable"
                + " ENGRAM_NEO4J_PASSWORD is not set");
    assertThat(work.resolve("data")).doesNotExist();
  }

  @Test
  void theShippedJarHoldsTheApacheDriverAndNothingOfTheGplServer() throws IOException {
    Path jar = Path.of(System.getProperty("engram.jar"));
    List<String> neo4jArtifacts;
    long harnessEntries;
    try (JarFile j = new JarFile(jar.toFile())) {
      neo4jArtifacts =
          j.stream()
              .map(JarEntry::getName)
              .filter(
                  n -> n.startsWith("META-INF/maven/org.neo4j") && n.endsWith("/pom.properties"))
              .map(
                  n ->
                      n.substring(
                          "META-INF/maven/".length(), n.length() - "/pom.properties".length()))
              .sorted()
              .toList();
      harnessEntries = j.stream().filter(e -> e.getName().contains("harness")).count();
    }
    assertThat(harnessEntries).isZero();
    assertThat(neo4jArtifacts)
        .containsExactly(
            "org.neo4j.bolt/neo4j-bolt-connection",
            "org.neo4j.bolt/neo4j-bolt-connection-netty",
            "org.neo4j.bolt/neo4j-bolt-connection-pooled",
            "org.neo4j.bolt/neo4j-bolt-connection-routed",
            "org.neo4j.driver/neo4j-java-driver");
  }
}

package dev.engram.neo4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.StorageException;
import dev.engram.ValidationException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Settings from the environment, the password kept out of logs, and an unreachable server reported
 * as such.
 */
class Neo4jSettingsTest {
  @Test
  void environmentGivesUriCredentialsAndDatabase() {
    Neo4jSettings s =
        Neo4jSettings.fromEnvironment(
            Map.of(
                "ENGRAM_NEO4J_URI",
                " neo4j://db:7687 ",
                "ENGRAM_NEO4J_USER",
                "engram",
                "ENGRAM_NEO4J_PASSWORD",
                "s3cret",
                "ENGRAM_NEO4J_DATABASE",
                "memories"));
    assertThat(s).isEqualTo(new Neo4jSettings("neo4j://db:7687", "engram", "s3cret", "memories"));
    assertThat(Neo4jSettings.fromEnvironment(Map.of("ENGRAM_NEO4J_URI", "bolt://h:1")))
        .isEqualTo(new Neo4jSettings("bolt://h:1", "", "", "neo4j"));
  }

  @Test
  void aMissingUriOrDatabaseIsRejectedByName() {
    assertThatThrownBy(() -> Neo4jSettings.fromEnvironment(Map.of("ENGRAM_NEO4J_USER", "u")))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith("ENGRAM_NEO4J_URI: is not set");
    assertThatThrownBy(() -> new Neo4jSettings("bolt://h:1", "", "", " "))
        .isInstanceOf(ValidationException.class)
        .hasMessage("neo4j.database: must not be blank");
  }

  @Test
  void toStringHidesThePassword() {
    assertThat(Neo4jSettings.of("bolt://h:1", "engram", "s3cret").toString())
        .isEqualTo("Neo4jSettings[uri=bolt://h:1, user=engram, password=***, database=neo4j]")
        .doesNotContain("s3cret");
  }

  @Test
  void anUnreachableServerIsAStorageException() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    String uri = "bolt://127.0.0.1:" + port;
    assertThatThrownBy(() -> Neo4jGraphStore.connect(Neo4jSettings.of(uri, "", "")))
        .isInstanceOf(StorageException.class)
        .hasMessageStartingWith("neo4j: could not connect to " + uri + ": ");
  }
}

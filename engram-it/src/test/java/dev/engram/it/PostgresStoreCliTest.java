package dev.engram.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.postgres.PostgresCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code engram} command with {@code store.provider: postgres}, end to end: a
 * throwaway PostgreSQL 15 cluster with pgvector (password authentication over TCP; {@code
 * store.vectors} left at {@code auto}, which detects the extension and takes the pgvector path), an
 * {@code engram.yaml} naming its URL and a schema, the password only in {@code
 * ENGRAM_POSTGRES_PASSWORD}, and {@code java -jar engram.jar} as child processes, one per command,
 * so the second process reads what the first wrote. No data directory is created; the rows are
 * checked with JDBC.
 */
class PostgresStoreCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path work;

  @Test
  void commandsWriteAndReadThePostgresStore() throws Exception {
    PostgresCluster cluster = PostgresCluster.get();
    cluster.requirePgvector();
    Files.writeString(
        work.resolve("engram.yaml"),
        """
        data_dir: data
        store:
          provider: postgres
          url: %s
          user: postgres
          schema: cli_store
        """
            .formatted(cluster.url()));
    EngramJar engram =
        EngramJar.in(work, Map.of("ENGRAM_POSTGRES_PASSWORD", PostgresCluster.PASSWORD));

    EngramJar.Result added =
        engram.ok("add", "--user-id", "alice", "--no-infer", "I play the cello on Sundays");
    assertThat(added.err()).doesNotContain(PostgresCluster.PASSWORD);
    engram.ok("add", "--user-id", "alice", "--no-infer", "My sister lives in Lisbon");
    engram.ok("add", "--user-id", "bob", "--no-infer", "Bob keeps bees");

    JsonNode search =
        JSON.readTree(engram.ok("search", "--user-id", "alice", "--json", "cello").out());
    assertThat(search.get("results").get(0).get("memory").asText())
        .isEqualTo("I play the cello on Sundays");
    assertThat(search.get("results"))
        .extracting(h -> h.get("memory").asText())
        .doesNotContain("Bob keeps bees");
    assertThat(engram.ok("list", "--user-id", "alice").out()).contains("My sister lives in Lisbon");
    assertThat(work.resolve("data")).doesNotExist();

    try (Connection c = cluster.connect();
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT user_id, count(*) FROM cli_store.memories GROUP BY user_id"
                    + " ORDER BY user_id")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("alice");
      assertThat(rs.getLong(2)).isEqualTo(2);
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).isEqualTo("bob");
      assertThat(rs.getLong(2)).isEqualTo(1);
    }

    // store.vectors is not set (auto): the server offers pgvector, so the store took the pgvector
    // path
    assertThat(cluster.vectorColumnType("cli_store"))
        .as("the pgvector column auto detection added")
        .hasValueSatisfying(type -> assertThat(type).startsWith("vector("));

    EngramJar.Result refused =
        EngramJar.in(work, Map.of("ENGRAM_POSTGRES_PASSWORD", "wrong-password"))
            .run("list", "--user-id", "alice");
    assertThat(refused.exitCode()).isNotZero();
    assertThat(refused.err())
        .contains(cluster.url())
        .contains("password")
        .doesNotContain("wrong-password");
  }
}

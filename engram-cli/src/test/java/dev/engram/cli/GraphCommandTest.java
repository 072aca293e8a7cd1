package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram graph relations|around|delete-entity} on a data directory whose graph is written
 * directly.
 */
class GraphCommandTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant JAN = Instant.parse("2023-01-10T00:00:00Z");
  private static final Instant JUN = Instant.parse("2023-06-01T00:00:00Z");

  @TempDir Path dir;
  Graph cli;

  /** Runs {@code engram graph SUB --data-dir DIR args...}. */
  record Graph(Path data) {
    Cli.Result run(String graph, String sub, String... args) {
      List<String> all =
          new java.util.ArrayList<>(List.of(graph, sub, "--data-dir", data.toString()));
      all.addAll(List.of(args));
      return Cli.raw(all.toArray(String[]::new));
    }
  }

  private static Entity entity(String id, String name) {
    float[] v = new float[384];
    v[Math.abs(name.hashCode()) % 384] = 1;
    return new Entity(id, name, name.toLowerCase(), "entity", v, 1, JAN, JAN, ALICE);
  }

  private static Relation relation(
      String id, String s, String name, String t, String fact, Instant valid, Instant invalid) {
    return new Relation(
        id,
        s,
        name,
        t,
        fact,
        new float[384],
        valid,
        invalid,
        JAN,
        invalid == null ? null : JUN,
        List.of(),
        List.of(),
        ALICE);
  }

  @BeforeEach
  void writeGraph() throws Exception {
    Path data = dir.resolve("data");
    try (EmbeddedStorage storage = EmbeddedStorage.open(data, 384)) {
      storage
          .graph()
          .orElseThrow()
          .apply(
              "default",
              GraphChanges.upserts(
                  List.of(
                      entity("a", "Alice"),
                      entity("b", "Beijing"),
                      entity("s", "Shanghai"),
                      entity("c", "Acme"),
                      entity("o", "Bob")),
                  List.of(
                      relation("r1", "a", "lives_in", "b", "Alice lives in Beijing", JAN, JUN),
                      relation("r2", "a", "lives_in", "s", "Alice lives in Shanghai", JUN, null),
                      relation("r3", "a", "works_at", "c", "Alice works at Acme", JAN, null),
                      relation("r4", "o", "works_at", "c", "Bob works at Acme", JAN, null))));
    }
    cli = new Graph(data);
  }

  @Test
  void relationsShowCurrentOnesByDefaultAndHistoryOnRequest() {
    Cli.Result now = cli.run("graph", "relations", "--user-id", "alice", "ALICE");
    assertThat(now.exitCode()).as(now.err()).isZero();
    assertThat(now.out().lines())
        .containsExactly(
            "Alice -[lives_in]-> Shanghai  (Alice lives in Shanghai)  2023-06-01T00:00:00Z .. now",
            "Alice -[works_at]-> Acme  (Alice works at Acme)  2023-01-10T00:00:00Z .. now");
    var json =
        cli.run(
                "graph",
                "relations",
                "--user-id",
                "alice",
                "--as-of",
                "2023-03-01T00:00:00Z",
                "--json",
                "alice")
            .json();
    assertThat(json.get("relations")).hasSize(2);
    assertThat(json.get("relations").get(0).toString())
        .isEqualTo(
            "{\"source\":\"Alice\",\"relationship\":"
                + "\"lives_in\",\"destination\":\"Beijing\",\"fact\":\"Alice lives in Beijing\",\"valid_at\":"
                + "\"2023-01-10T00:00:00Z\",\"invalid_at\":\"2023-06-01T00:00:00Z\",\"source_ids\":[],\"memory_ids\":[]}");
    assertThat(
            cli.run("graph", "relations", "--user-id", "alice", "--all", "--json", "alice")
                .json()
                .get("relations"))
        .hasSize(3);
  }

  @Test
  void aroundFollowsTwoHopsAndDeleteEntityRemovesItsEdges() {
    assertThat(
            cli.run("graph", "around", "--user-id", "alice", "--json", "Alice")
                .json()
                .get("relations"))
        .extracting(n -> n.get("fact").asText())
        .containsExactly("Alice lives in Shanghai", "Alice works at Acme", "Bob works at Acme");
    assertThat(
            cli.run("graph", "around", "--user-id", "alice", "--hops", "1", "--json", "Alice")
                .json()
                .get("relations"))
        .hasSize(2);
    Cli.Result deleted = cli.run("graph", "delete-entity", "--user-id", "alice", "acme");
    assertThat(deleted.out()).isEqualTo("deleted 1 entity named 'acme'" + System.lineSeparator());
    assertThat(
            cli.run("graph", "around", "--user-id", "alice", "--json", "Alice")
                .json()
                .get("relations"))
        .extracting(n -> n.get("fact").asText())
        .containsExactly("Alice lives in Shanghai");
  }

  @Test
  void badInputExitsWithTwo() {
    assertThat(cli.run("graph", "around", "--user-id", "alice", "--hops", "9", "Alice").exitCode())
        .isEqualTo(2);
    assertThat(
            cli.run(
                    "graph",
                    "relations",
                    "--user-id",
                    "alice",
                    "--all",
                    "--as-of",
                    "2023-01-01T00:00:00Z",
                    "Alice")
                .exitCode())
        .isEqualTo(2);
    assertThat(Cli.raw("graph").exitCode()).isEqualTo(2);
  }
}

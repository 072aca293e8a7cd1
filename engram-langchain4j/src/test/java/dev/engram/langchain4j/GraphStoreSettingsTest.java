package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import dev.engram.langchain4j.EngramSettings.GraphStoreProvider;
import dev.engram.neo4j.Neo4jSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code graph_store} section of {@code engram.yaml}, its environment overrides and its
 * password.
 */
class GraphStoreSettingsTest {
  private static final String SECRET = "n30j-s3cret-pw";

  @TempDir Path dir;

  private Path write(String yaml) throws IOException {
    return Files.writeString(dir.resolve("engram.yaml"), yaml);
  }

  private ValidationException rejected(String yaml, Map<String, String> env) throws IOException {
    Path file = write(yaml);
    try {
      SettingsLoader.load(file, env);
    } catch (ValidationException e) {
      return e;
    }
    throw new AssertionError("expected a ValidationException for:\n" + yaml);
  }

  @Test
  void defaultIsTheEmbeddedStoreWithTheGraphOff() throws IOException {
    EngramSettings s = SettingsLoader.load(write("data_dir: d\n"), Map.of());

    assertThat(s.graphStore()).isEqualTo(EngramSettings.GraphStore.embedded());
    assertThat(s.graphStore().provider()).isEqualTo(GraphStoreProvider.EMBEDDED);
    assertThat(s.pipeline().graph()).isFalse();
    assertThat(EngramSettings.defaults().graphStore())
        .isEqualTo(EngramSettings.GraphStore.embedded());
    assertThat(
            SettingsLoader.load(
                    write("graph_store:\n  provider: embedded\npipeline:\n  graph: true\n"),
                    Map.of())
                .pipeline()
                .graph())
        .isTrue();
  }

  @Test
  void readsEveryNeo4jKeyAndTurnsTheGraphOn() throws IOException {
    Path file =
        write(
            """
        graph_store:
          provider: neo4j
          uri: neo4j://graph.internal:7687
          user: engram
          database: memories
          password_env: MY_NEO4J_PW
        """);

    EngramSettings s = SettingsLoader.load(file, Map.of("MY_NEO4J_PW", SECRET));

    assertThat(s.graphStore())
        .isEqualTo(
            new EngramSettings.GraphStore(
                Optional.of(
                    new Neo4jSettings("neo4j://graph.internal:7687", "engram", "", "memories")),
                "MY_NEO4J_PW",
                Optional.empty()));
    assertThat(s.pipeline().graph()).isTrue();
    assertThat(s.graphStore().password(Map.of("MY_NEO4J_PW", SECRET))).isEqualTo(SECRET);
    assertThat(s.graphStore().connection(Map.of("MY_NEO4J_PW", SECRET)))
        .contains(new Neo4jSettings("neo4j://graph.internal:7687", "engram", SECRET, "memories"));
  }

  @Test
  void userDefaultsToNeo4jWithAPasswordAndToNoneWithout() throws IOException {
    Path file = write("graph_store:\n  provider: neo4j\n  uri: bolt://127.0.0.1:7687\n");

    EngramSettings.GraphStore withPassword =
        SettingsLoader.load(file, Map.of("ENGRAM_NEO4J_PASSWORD", SECRET)).graphStore();
    assertThat(withPassword.neo4j().orElseThrow().user()).isEqualTo("neo4j");
    assertThat(withPassword.neo4j().orElseThrow().database()).isEqualTo("neo4j");
    assertThat(withPassword.passwordEnv()).isEqualTo("ENGRAM_NEO4J_PASSWORD");
    assertThat(withPassword.password(Map.of("ENGRAM_NEO4J_PASSWORD", SECRET))).isEqualTo(SECRET);

    EngramSettings.GraphStore noAuth = SettingsLoader.load(file, Map.of()).graphStore();
    assertThat(noAuth.neo4j().orElseThrow().user()).isEmpty();
    assertThat(noAuth.password(Map.of())).isEmpty();
  }

  @Test
  void environmentOverridesTheFileAndCanChooseNeo4jAlone() throws IOException {
    Path file =
        write(
            """
        graph_store:
          provider: neo4j
          uri: neo4j://from-file:7687
          user: fileuser
          database: filedb
        """);
    Map<String, String> env =
        Map.of(
            "ENGRAM_NEO4J_URI",
            "bolt://from-env:7688",
            "ENGRAM_NEO4J_USER",
            "envuser",
            "ENGRAM_NEO4J_DATABASE",
            "envdb",
            "ENGRAM_NEO4J_PASSWORD",
            SECRET);

    EngramSettings.GraphStore g = SettingsLoader.load(file, env).graphStore();
    assertThat(g)
        .isEqualTo(
            new EngramSettings.GraphStore(
                Optional.of(new Neo4jSettings("bolt://from-env:7688", "envuser", "", "envdb")),
                "ENGRAM_NEO4J_PASSWORD",
                Optional.empty()));

    EngramSettings fromEnv =
        SettingsLoader.fromEnvironment(
            Map.of("ENGRAM_GRAPH_STORE", "neo4j", "ENGRAM_NEO4J_URI", "neo4j://localhost:7687"));
    assertThat(fromEnv.graphStore())
        .isEqualTo(EngramSettings.GraphStore.neo4j("neo4j://localhost:7687"));
    assertThat(fromEnv.pipeline().graph()).isTrue();

    EngramSettings backToEmbedded =
        SettingsLoader.load(file, Map.of("ENGRAM_GRAPH_STORE", "embedded"));
    assertThat(backToEmbedded.graphStore()).isEqualTo(EngramSettings.GraphStore.embedded());
    assertThat(backToEmbedded.pipeline().graph()).isFalse();
  }

  @Test
  void unknownProviderAndMissingUriNameTheKeyAndTheFile() throws IOException {
    Path file = dir.resolve("engram.yaml");

    ValidationException unknown = rejected("graph_store:\n  provider: neptune\n", Map.of());
    assertThat(unknown.field()).isEqualTo("graph_store.provider");
    assertThat(unknown.getMessage())
        .isEqualTo(
            "graph_store.provider: unknown value 'neptune' in "
                + file
                + " (expected one of embedded, neo4j)");

    ValidationException missingUri =
        rejected("graph_store:\n  provider: neo4j\n  user: neo4j\n", Map.of());
    assertThat(missingUri.field()).isEqualTo("graph_store.uri");
    assertThat(missingUri.getMessage())
        .isEqualTo(
            "graph_store.uri: missing in "
                + file
                + "; the Neo4j graph store"
                + " needs the server's URI, for example neo4j://localhost:7687 (or set ENGRAM_NEO4J_URI)");

    ValidationException badUri =
        rejected("graph_store:\n  provider: neo4j\n  uri: http://localhost:7474\n", Map.of());
    assertThat(badUri.field()).isEqualTo("graph_store.uri");
    assertThat(badUri.getMessage()).contains("'http://localhost:7474'", file.toString());

    assertThatThrownBy(() -> SettingsLoader.fromEnvironment(Map.of("ENGRAM_GRAPH_STORE", "neo4j")))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("graph_store.uri"));
    assertThatThrownBy(
            () -> SettingsLoader.fromEnvironment(Map.of("ENGRAM_GRAPH_STORE", "arangodb")))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("ENGRAM_GRAPH_STORE"));
  }

  @Test
  void neo4jKeysWithoutTheNeo4jStoreAreRejected() throws IOException {
    ValidationException inFile =
        rejected("graph_store:\n  uri: neo4j://localhost:7687\n", Map.of());
    assertThat(inFile.field()).isEqualTo("graph_store.uri");
    assertThat(inFile.getMessage())
        .contains("only used with the Neo4j graph store", "provider: neo4j");

    assertThatThrownBy(
            () ->
                SettingsLoader.fromEnvironment(
                    Map.of("ENGRAM_NEO4J_URI", "neo4j://localhost:7687")))
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.field()).isEqualTo("ENGRAM_NEO4J_URI");
              assertThat(e.getMessage()).contains("ENGRAM_GRAPH_STORE=neo4j");
            });
  }

  @Test
  void graphOffContradictsTheNeo4jStore() throws IOException {
    ValidationException e =
        rejected(
            """
        graph_store:
          provider: neo4j
          uri: neo4j://localhost:7687
        pipeline:
          graph: false
        """,
            Map.of());
    assertThat(e.field()).isEqualTo("pipeline.graph");
    assertThat(e.getMessage()).contains("neo4j");
  }

  @Test
  void passwordIsNeverReadFromTheFileNorPrinted() throws IOException {
    ValidationException inYaml =
        rejected(
            "graph_store:\n  provider: neo4j\n  uri: neo4j://h:7687\n  password: " + SECRET + "\n",
            Map.of());
    assertThat(inYaml.field()).isEqualTo("graph_store.password");
    assertThat(inYaml.getMessage())
        .contains("never read from", "ENGRAM_NEO4J_PASSWORD", "graph_store.password_file")
        .doesNotContain(SECRET);

    Map<String, String> env = Map.of("ENGRAM_NEO4J_PASSWORD", SECRET);
    EngramSettings s =
        SettingsLoader.load(write("graph_store:\n  provider: neo4j\n  uri: neo4j://h:7687\n"), env);
    assertThat(s.toString())
        .contains("neo4j://h:7687", "ENGRAM_NEO4J_PASSWORD")
        .doesNotContain(SECRET);
    assertThat(s.graphStore().toString()).doesNotContain(SECRET);
  }

  @Test
  void namedUserWithoutPasswordFailsWithTheVariableName() throws IOException {
    ValidationException e =
        rejected(
            "graph_store:\n  provider: neo4j\n  uri: neo4j://h:7687\n  user: neo4j\n", Map.of());
    assertThat(e.field()).isEqualTo("graph_store.password_env");
    assertThat(e.getMessage())
        .isEqualTo(
            "graph_store.password_env: environment variable ENGRAM_NEO4J_PASSWORD is"
                + " not set; graph_store.user is set, so Neo4j needs a password: set ENGRAM_NEO4J_PASSWORD, name another"
                + " variable with graph_store.password_env, or give graph_store.password_file");
  }

  @Test
  void passwordFileIsResolvedAgainstTheConfigDirectoryAndReadInsteadOfTheVariable()
      throws IOException {
    String yaml =
        "graph_store:\n  provider: neo4j\n  uri: neo4j://h:7687\n  user: neo4j\n"
            + "  password_file: secrets/neo4j.pw\n";
    ValidationException missing = rejected(yaml, Map.of());
    assertThat(missing.field()).isEqualTo("graph_store.password_file");
    assertThat(missing.getMessage()).contains(dir.resolve("secrets/neo4j.pw").toString());

    Files.createDirectories(dir.resolve("secrets"));
    Files.writeString(dir.resolve("secrets/neo4j.pw"), SECRET + "\n");
    Map<String, String> env = Map.of("ENGRAM_NEO4J_PASSWORD", "not-this-one");
    EngramSettings.GraphStore g = SettingsLoader.load(write(yaml), env).graphStore();

    assertThat(g.passwordFile()).contains(dir.resolve("secrets/neo4j.pw"));
    assertThat(g.password(env)).isEqualTo(SECRET);
    assertThat(g.toString()).doesNotContain(SECRET);
  }

  @Test
  void inCodeTheNeo4jStoreTurnsTheGraphOn() {
    EngramSettings s =
        EngramSettings.defaults()
            .withGraphStore(
                EngramSettings.GraphStore.neo4j("bolt://localhost:7687").withUser("neo4j"));
    assertThat(s.pipeline().graph()).isTrue();
    assertThat(s.graphStore().neo4j().orElseThrow().user()).isEqualTo("neo4j");
    assertThatThrownBy(
            () ->
                EngramSettings.GraphStore.neo4j(
                    Neo4jSettings.of("bolt://localhost:7687", "neo4j", SECRET)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no password")
        .hasMessageNotContaining(SECRET);
    assertThatThrownBy(() -> EngramSettings.GraphStore.embedded().withUser("neo4j"))
        .isInstanceOf(IllegalStateException.class);
  }
}

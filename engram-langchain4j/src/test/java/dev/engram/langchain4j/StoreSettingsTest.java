package dev.engram.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import dev.engram.langchain4j.EngramSettings.StoreProvider;
import dev.engram.postgres.PostgresSettings;
import dev.engram.postgres.VectorMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code store} section of {@code engram.yaml}, its environment overrides and the PostgreSQL
 * password.
 */
class StoreSettingsTest {
  private static final String SECRET = "pg-s3cret-pw";

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
  void defaultIsTheEmbeddedStore() throws IOException {
    assertThat(SettingsLoader.load(write("data_dir: d\n"), Map.of()).store())
        .isEqualTo(EngramSettings.Store.embedded());
    assertThat(EngramSettings.defaults().store().provider()).isEqualTo(StoreProvider.EMBEDDED);
  }

  @Test
  void postgresWithUrlUserSchemaAndThePasswordFromTheEnvironment() throws IOException {
    EngramSettings s =
        SettingsLoader.load(
            write(
                """
        store:
          provider: postgres
          url: jdbc:postgresql://db.internal:5432/memories
          user: engram
          schema: team_a
        """),
            Map.of("ENGRAM_POSTGRES_PASSWORD", SECRET));
    EngramSettings.Store store = s.store();
    assertThat(store.provider()).isEqualTo(StoreProvider.POSTGRES);
    PostgresSettings database = store.postgres().orElseThrow();
    assertThat(database.url()).isEqualTo("jdbc:postgresql://db.internal:5432/memories");
    assertThat(database.user()).isEqualTo("engram");
    assertThat(database.schema()).isEqualTo("team_a");
    assertThat(database.password()).isEmpty();
    assertThat(store.password(Map.of("ENGRAM_POSTGRES_PASSWORD", SECRET))).contains(SECRET);
    assertThat(store.password(Map.of())).isEmpty();
    assertThat(store.connection(Map.of("ENGRAM_POSTGRES_PASSWORD", SECRET)))
        .contains(database.toBuilder().password(SECRET).build());
    assertThat(store.connection(Map.of())).contains(database);
    assertThat(store.toString()).doesNotContain(SECRET);
  }

  @Test
  void thePasswordComesFromASecretsFileWhenOneIsNamed() throws IOException {
    Path secret = Files.writeString(dir.resolve("pg-password"), SECRET + "\n");
    EngramSettings.Store store =
        SettingsLoader.load(
                write(
                    """
        store:
          provider: postgres
          url: jdbc:postgresql://localhost/engram
          password_file: pg-password
        """),
                Map.of())
            .store();
    assertThat(store.passwordFile()).contains(secret);
    assertThat(store.password(Map.of("ENGRAM_POSTGRES_PASSWORD", "ignored"))).contains(SECRET);
    assertThat(store.postgres().orElseThrow().user()).isEqualTo("postgres");
    assertThat(store.postgres().orElseThrow().schema()).isEqualTo("engram");
  }

  @Test
  void theVectorPathPoolSizeAndExactLimitAreRead() throws IOException {
    PostgresSettings defaults =
        SettingsLoader.load(
                write(
                    """
        store:
          provider: postgres
          url: jdbc:postgresql://localhost/engram
        """),
                Map.of())
            .store()
            .postgres()
            .orElseThrow();
    assertThat(defaults.vectors()).isEqualTo(VectorMode.AUTO);
    assertThat(defaults.poolSize()).isEqualTo(10);
    assertThat(defaults.exactSearchLimit()).isEqualTo(5_000);
    assertThat(defaults.vectorCacheMb()).isEqualTo(256);
    PostgresSettings store =
        SettingsLoader.load(
                write(
                    """
        store:
          provider: postgres
          url: jdbc:postgresql://localhost/engram
          vectors: pgvector
          pool_size: 1
          exact_search_limit: 2000
          vector_cache_mb: 0
        """),
                Map.of())
            .store()
            .postgres()
            .orElseThrow();
    assertThat(store.vectors()).isEqualTo(VectorMode.PGVECTOR);
    assertThat(store.poolSize()).isEqualTo(1);
    assertThat(store.exactSearchLimit()).isEqualTo(2_000);
    assertThat(store.vectorCacheMb()).isZero();
  }

  @Test
  void theEnvironmentChoosesPostgresAndItsUrl() {
    EngramSettings.Store store =
        SettingsLoader.fromEnvironment(
                Map.of(
                    "ENGRAM_STORE",
                    "postgres",
                    "ENGRAM_POSTGRES_URL",
                    "jdbc:postgresql://10.0.0.5/engram"))
            .store();
    assertThat(store.provider()).isEqualTo(StoreProvider.POSTGRES);
    assertThat(store.postgres().map(PostgresSettings::url))
        .contains("jdbc:postgresql://10.0.0.5/engram");
  }

  @Test
  void badStoreSettingsNameTheirField() throws IOException {
    assertThat(rejected("store:\n  provider: postgres\n", Map.of()).field()).isEqualTo("store.url");
    assertThat(
            rejected("store:\n  provider: postgres\n  url: postgres://localhost/db\n", Map.of())
                .field())
        .isEqualTo("store.url");
    assertThat(
            rejected(
                    "store:\n  provider: postgres\n  url: jdbc:postgresql://h/db\n  schema: Bad-Name\n",
                    Map.of())
                .field())
        .isEqualTo("store.schema");
    assertThat(rejected("store:\n  provider: mysql\n", Map.of()).field())
        .isEqualTo("store.provider");
    ValidationException embeddedWithUrl =
        rejected("store:\n  url: jdbc:postgresql://h/db\n", Map.of());
    assertThat(embeddedWithUrl.field()).isEqualTo("store.url");
    assertThat(embeddedWithUrl.getMessage()).contains("provider: postgres");
    assertThat(
            rejected(
                    "store:\n  provider: postgres\n  url: jdbc:postgresql://h/db\n  password_file: missing\n",
                    Map.of())
                .field())
        .isEqualTo("store.password_file");
    assertThat(rejected("store:\n  provider: postgres\n  port: 5432\n", Map.of()).field())
        .isEqualTo("store.port");
    assertThat(
            rejected(
                    "store:\n  provider: postgres\n  url: jdbc:postgresql://h/db\n  vectors: faiss\n",
                    Map.of())
                .field())
        .isEqualTo("store.vectors");
    assertThat(
            rejected(
                    "store:\n  provider: postgres\n  url: jdbc:postgresql://h/db\n  pool_size: 0\n",
                    Map.of())
                .field())
        .isEqualTo("store.pool_size");
    assertThat(
            rejected(
                    "store:\n  provider: postgres\n  url: jdbc:postgresql://h/db\n  vector_cache_mb: -1\n",
                    Map.of())
                .field())
        .isEqualTo("store.vector_cache_mb");
    assertThat(rejected("store:\n  vectors: array\n", Map.of()).field()).isEqualTo("store.vectors");
    assertThatThrownBy(() -> SettingsLoader.fromEnvironment(Map.of("ENGRAM_STORE", "oracle")))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void theStoreHoldsThePostgresSettingsWithoutAPassword() {
    PostgresSettings database =
        PostgresSettings.builder("jdbc:postgresql://h/db").schema("team_b").build();
    assertThat(EngramSettings.Store.postgres(database).postgres()).contains(database);
    assertThat(
            EngramSettings.Store.embedded().connection(Map.of("ENGRAM_POSTGRES_PASSWORD", SECRET)))
        .isEmpty();
    assertThatThrownBy(
            () -> EngramSettings.Store.postgres(database.toBuilder().password(SECRET).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no password")
        .hasMessageNotContaining(SECRET);
  }
}

package dev.engram.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.client.RemoteMemory;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import dev.engram.spi.Embedder;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configuration in a real application context: embedded, remote (a real server), disabled,
 * bad settings.
 */
class EngramAutoConfigurationTest {
  @TempDir Path dir;

  @Configuration(proxyBeanMethods = false)
  static class HashEmbedderConfig {
    @Bean
    Embedder embedder() {
      return new HashEmbedder();
    }
  }

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(EngramAutoConfiguration.class))
          .withUserConfiguration(HashEmbedderConfig.class);

  @Test
  void embeddedByDefaultWithHealthAndAdvisor() {
    runner
        .withPropertyValues("engram.data-dir=" + dir.resolve("data"))
        .run(
            ctx -> {
              assertThat(ctx)
                  .hasNotFailed()
                  .hasSingleBean(Memory.class)
                  .hasSingleBean(EngramMemoryAdvisor.class);
              Memory memory = ctx.getBean(Memory.class);
              assertThat(memory).isNotInstanceOf(RemoteMemory.class);
              String id =
                  memory
                      .add(
                          AddRequest.builder(Scope.user("alice"))
                              .user("I live in Porto")
                              .infer(false)
                              .build())
                      .events()
                      .get(0)
                      .id();
              assertThat(
                      memory
                          .search(SearchRequest.builder(Scope.user("alice"), "Porto").build())
                          .hits())
                  .extracting(h -> h.memory().id())
                  .containsExactly(id);
              Health health = ctx.getBean(EngramHealthIndicator.class).health(true);
              assertThat(health.getStatus()).isEqualTo(Status.UP);
              assertThat(health.getDetails())
                  .containsEntry("indexStale", false)
                  .containsKey("recordSequence");
            });
    // the data directory was closed with the context: it opens again
    HashEmbedder e = new HashEmbedder();
    try (Memory reopened =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir.resolve("data"), e.dimension()))
            .embedder(e)
            .build()) {
      assertThat(
              reopened.search(SearchRequest.builder(Scope.user("alice"), "Porto").build()).hits())
          .hasSize(1);
    }
  }

  @Test
  void remoteByPropertyTalksToTheServer() {
    HashEmbedder embedder = new HashEmbedder();
    try (Memory served =
            Engram.builder()
                .storage(EmbeddedStorage.open(dir, embedder.dimension()))
                .embedder(embedder)
                .build();
        ServerDatabase db = ServerDatabase.open(dir);
        SqliteApiKeyStore keys = new SqliteApiKeyStore(db, Clock.systemUTC(), false);
        SqliteAddEventStore events = new SqliteAddEventStore(db, false);
        EngramServer server =
            EngramServer.builder(served)
                .settings(ServerSettings.builder().port(0).build())
                .keys(keys)
                .events(events)
                .build()
                .start()) {
      String key = keys.create("acme", KeyRole.MEMBER, "spring").secret();
      runner
          .withPropertyValues(
              "engram.mode=remote",
              "engram.remote.base-url=http://127.0.0.1:" + server.port(),
              "engram.remote.api-key=" + key)
          .run(
              ctx -> {
                assertThat(ctx).hasNotFailed();
                Memory memory = ctx.getBean(Memory.class);
                assertThat(memory).isInstanceOf(RemoteMemory.class);
                assertThat(memory.tenant()).isEqualTo("acme");
                String id =
                    memory
                        .add(
                            AddRequest.builder(Scope.user("bob"))
                                .user("Bob keeps bees")
                                .infer(false)
                                .build())
                        .events()
                        .get(0)
                        .id();
                assertThat(served.forTenant("acme").get(id)).isPresent();
                assertThat(ctx.getBean(EngramHealthIndicator.class).health(true).getStatus())
                    .isEqualTo(Status.UP);
              });
    }
  }

  @Test
  void anUnreachableServerIsDown() {
    runner
        .withPropertyValues(
            "engram.mode=remote",
            "engram.remote.base-url=http://127.0.0.1:1",
            "engram.remote.api-key=k",
            "engram.remote.max-retries=0")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx.getBean(EngramHealthIndicator.class).health(true).getStatus())
                  .isEqualTo(Status.DOWN);
            });
  }

  @Test
  void disabledMakesNothing() {
    runner
        .withPropertyValues("engram.enabled=false")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasNotFailed()
                    .doesNotHaveBean(Memory.class)
                    .doesNotHaveBean(EngramMemoryAdvisor.class)
                    .doesNotHaveBean(EngramHealthIndicator.class));
  }

  @Test
  void badSettingsFailTheStartupNamingTheProperty() {
    runner
        .withPropertyValues("engram.mode=remote")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("engram.remote.base-url"));
    runner
        .withPropertyValues(
            "engram.mode=remote", "engram.remote.base-url=ftp://x", "engram.remote.api-key=k")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("base_url")
                    .hasMessageContaining("http://"));
    runner
        .withPropertyValues("engram.mode=sideways")
        .run(
            ctx -> assertThat(ctx).hasFailed().getFailure().hasStackTraceContaining("engram.mode"));
    runner
        .withPropertyValues("engram.data-dir=" + dir, "engram.advisor.top-k=0")
        .run(
            ctx ->
                assertThat(ctx)
                    .hasFailed()
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("engram.advisor.top-k"));
  }
}

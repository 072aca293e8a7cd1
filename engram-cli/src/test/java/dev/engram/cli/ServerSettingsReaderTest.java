package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ValidationException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The add event lease and the key cache in {@code engram.yaml}'s {@code server:} block and their
 * environment overrides.
 */
class ServerSettingsReaderTest {
  @TempDir Path dir;

  @Test
  void theEventLeaseComesFromTheFileAndTheEnvironmentOverridesIt() throws Exception {
    assertThat(ServerSettingsReader.read(Map.of(), dir).build().eventLease())
        .isEqualTo(Duration.ofSeconds(60));
    Files.writeString(dir.resolve("engram.yaml"), "server:\n  event_lease_seconds: 15\n");
    assertThat(ServerSettingsReader.read(Map.of(), dir).build().eventLease())
        .isEqualTo(Duration.ofSeconds(15));
    assertThat(
            ServerSettingsReader.read(Map.of("ENGRAM_SERVER_EVENT_LEASE_SECONDS", "7"), dir)
                .build()
                .eventLease())
        .isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void aLeaseShorterThanThreeSecondsIsRefusedNamingTheSetting() throws Exception {
    Files.writeString(dir.resolve("engram.yaml"), "server:\n  event_lease_seconds: 2\n");
    assertThatThrownBy(() -> ServerSettingsReader.read(Map.of(), dir).build())
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> assertThat(e.field()).isEqualTo("server.event_lease_seconds"));
  }

  @Test
  void theKeyCacheComesFromTheFileAndTheEnvironmentAndIsBounded() throws Exception {
    assertThat(ServerSettingsReader.read(Map.of(), dir).build().keyCacheTtl())
        .isEqualTo(Duration.ofSeconds(2));
    Files.writeString(dir.resolve("engram.yaml"), "server:\n  key_cache_seconds: 0\n");
    assertThat(ServerSettingsReader.read(Map.of(), dir).build().keyCacheTtl())
        .isEqualTo(Duration.ZERO);
    assertThat(
            ServerSettingsReader.read(Map.of("ENGRAM_SERVER_KEY_CACHE_SECONDS", "5"), dir)
                .build()
                .keyCacheTtl())
        .isEqualTo(Duration.ofSeconds(5));
    Files.writeString(dir.resolve("engram.yaml"), "server:\n  key_cache_seconds: 61\n");
    assertThatThrownBy(() -> ServerSettingsReader.read(Map.of(), dir).build())
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> assertThat(e.field()).isEqualTo("server.key_cache_seconds"));
  }
}

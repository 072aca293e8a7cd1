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

/** The add event lease in {@code engram.yaml}'s {@code server:} block and its environment override. */
class ServerSettingsReaderTest {
  @TempDir
  Path dir;

  @Test
  void theEventLeaseComesFromTheFileAndTheEnvironmentOverridesIt() throws Exception {
    assertThat(ServerSettingsReader.read(Map.of(), dir).build().eventLease()).isEqualTo(Duration.ofSeconds(60));
    Files.writeString(dir.resolve("engram.yaml"), "server:\n  event_lease_seconds: 15\n");
    assertThat(ServerSettingsReader.read(Map.of(), dir).build().eventLease()).isEqualTo(Duration.ofSeconds(15));
    assertThat(ServerSettingsReader.read(Map.of("ENGRAM_SERVER_EVENT_LEASE_SECONDS", "7"), dir).build()
        .eventLease()).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void aLeaseShorterThanThreeSecondsIsRefusedNamingTheSetting() throws Exception {
    Files.writeString(dir.resolve("engram.yaml"), "server:\n  event_lease_seconds: 2\n");
    assertThatThrownBy(() -> ServerSettingsReader.read(Map.of(), dir).build())
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.field()).isEqualTo("server.event_lease_seconds"));
  }
}

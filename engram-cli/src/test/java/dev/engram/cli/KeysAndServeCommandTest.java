package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteApiKeyStore;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram keys} on a real server.db, and {@code engram serve}'s refusals before it listens.
 */
class KeysAndServeCommandTest {
  @TempDir Path dir;

  private Cli.Result keys(String... args) {
    String[] all = new String[args.length + 2];
    all[0] = "keys";
    all[1] = args[0];
    all[2] = "--data-dir=" + dir;
    System.arraycopy(args, 1, all, 3, args.length - 1);
    return Cli.raw(all);
  }

  @Test
  void aKeyIsShownOnceStoredAsAHashAndRevocable() throws Exception {
    Cli.Result created = keys("create", "--tenant", "acme", "--admin", "--label", "ops");
    assertThat(created.exitCode()).as(created.err()).isZero();
    String key = created.out().strip();
    assertThat(key).matches("eng_[0-9a-f]{12}_[A-Za-z0-9_-]{32}");
    assertThat(created.err()).doesNotContain(key);

    Cli.Result listed = keys("list", "--json");
    assertThat(listed.out()).doesNotContain(key.substring(17));
    JsonNode k = listed.json().get(0);
    assertThat(k.path("tenant").asText()).isEqualTo("acme");
    assertThat(k.path("role").asText()).isEqualTo("admin");
    assertThat(k.path("label").asText()).isEqualTo("ops");
    assertThat(k.path("revoked_at").isNull()).isTrue();
    assertThat(
            new String(
                java.nio.file.Files.readAllBytes(dir.resolve("server.db")),
                java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain(key);

    try (ServerDatabase db = ServerDatabase.open(dir);
        SqliteApiKeyStore store = new SqliteApiKeyStore(db, Clock.systemUTC(), false)) {
      assertThat(store.authenticate(key))
          .hasValueSatisfying(p -> assertThat(p.tenant()).isEqualTo("acme"));
      assertThat(store.authenticate(key.substring(0, 48) + (key.endsWith("A") ? "B" : "A")))
          .isEmpty();
    }

    String id = k.path("id").asText();
    assertThat(keys("revoke", id).exitCode()).isZero();
    assertThat(keys("list", "--json").json().get(0).path("revoked_at").isNull()).isFalse();
    Cli.Result again = keys("revoke", id);
    assertThat(again.exitCode()).isEqualTo(2);
    assertThat(again.err()).contains("no active key");
    try (ServerDatabase db = ServerDatabase.open(dir);
        SqliteApiKeyStore store = new SqliteApiKeyStore(db, Clock.systemUTC(), false)) {
      assertThat(store.authenticate(key)).isEmpty();
    }
  }

  @Test
  void serveRefusesAnOpenAddressWithoutKeysAndInsecureModeOffLoopback() {
    Cli.Result open = Cli.raw("serve", "--data-dir=" + dir, "--host", "0.0.0.0", "--port", "0");
    assertThat(open.exitCode()).isEqualTo(2);
    assertThat(open.err()).contains("refusing to listen on '0.0.0.0' without API keys");
    Cli.Result insecure =
        Cli.raw("serve", "--data-dir=" + dir, "--host", "0.0.0.0", "--insecure-no-auth");
    assertThat(insecure.exitCode()).isEqualTo(2);
    assertThat(insecure.err()).contains("loopback");
    Cli.Result badPort = Cli.raw("serve", "--data-dir=" + dir, "--port", "70000");
    assertThat(badPort.exitCode()).isEqualTo(2);
    assertThat(badPort.err()).contains("server.port");
  }
}

package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.server.auth.KeyRole;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official {@code mem0ai} npm client (3.3.1, {@code MemoryClient}) against a freshly started
 * server: installs the committed lock file with {@code npm ci}, then runs {@code
 * src/test/node/client.test.mjs} with node's test runner, which calls every client method and
 * checks its results. Node and npm must be installed (.ci/run installs them).
 */
class OfficialMem0ClientTest {
  private static final Path PROJECT = Path.of("src/test/node").toAbsolutePath();

  @TempDir Path dir;

  @Test
  void everyClientMethodWorksAgainstEngramServe() throws Exception {
    run(
        List.of("npm", "ci", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"),
        300,
        null,
        null);
    try (ServerFixture f = new ServerFixture(dir)) {
      String key = f.key("acme", KeyRole.ADMIN).secret();
      String output =
          run(
              List.of("node", "--test", "--test-reporter=spec", "client.test.mjs"),
              300,
              f.base(),
              key);
      assertThat(output).contains("the official mem0ai client works against engram serve");
      assertThat(output).contains("ℹ pass 14");
      assertThat(output).contains("ℹ fail 0");
    }
  }

  private static String run(List<String> command, int timeoutSeconds, String url, String key)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile("node", ".log");
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(PROJECT.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("MEM0_TELEMETRY", "false");
    if (url != null) {
      pb.environment().put("ENGRAM_URL", url);
      pb.environment().put("ENGRAM_KEY", key);
      pb.environment().put("ENGRAM_TENANT", "acme");
    }
    Process p = pb.start();
    boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    Files.deleteIfExists(log);
    assertThat(done).as("%s finished in %d s:%n%s", command, timeoutSeconds, output).isTrue();
    assertThat(p.exitValue()).as("%s failed:%n%s", command, output).isZero();
    return output;
  }
}

package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code ./engram demo --json} end to end through the root script and the packaged jar (after
 * {@code package}; {@code ENGRAM_NO_BUILD=1} keeps the script from starting a nested build). Proves
 * that the jar starts, that stdout carries only JSON (logs go to stderr) and that the demo leaves
 * no data behind.
 */
class EngramScriptIT {

  @Test
  void demoRunsThroughTheRootScript(@TempDir Path cwd) throws Exception {
    Path script = Path.of("..", "engram").toAbsolutePath().normalize();
    assertThat(script).isExecutable();
    assertThat(script.resolveSibling("engram-cli/target/engram.jar")).isRegularFile();
    Path out = cwd.resolve("stdout.txt");
    Path err = cwd.resolve("stderr.txt");
    ProcessBuilder pb =
        new ProcessBuilder(script.toString(), "demo", "--json")
            .directory(cwd.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().put("ENGRAM_NO_BUILD", "1");
    pb.environment().remove(CommonOptions.DATA_DIR_ENV);
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("./engram demo did not finish");
    }
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(stderr).isZero();

    JsonNode demo = MemoryJson.mapper().readTree(Files.readString(out, StandardCharsets.UTF_8));
    assertThat(demo.get("added").asInt()).isEqualTo(17);
    assertThat(demo.get("data_dir").isNull()).isTrue();
    assertThat(demo.get("searches").get(0).get("query").asText())
        .isEqualTo("Where does Maya live?");
    assertThat(demo.get("searches").get(0).get("results").toString())
        .contains("Maya finally moved to Lisbon");
    try (var files = Files.list(cwd)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .containsExactlyInAnyOrder("stdout.txt", "stderr.txt");
    }
  }
}

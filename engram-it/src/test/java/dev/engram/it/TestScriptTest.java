package dev.engram.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test command, {@code scripts/test.sh}, before it builds anything: with a
 * prerequisite missing (PostgreSQL 15's binaries pointed elsewhere with {@code ENGRAM_PG_BIN}, as
 * the PostgreSQL tests read them) its check names what is missing and the one command that installs
 * it, on one line, and fails; the same run without root installs nothing and builds nothing. On
 * this machine, where the suite runs, the check passes silently.
 */
class TestScriptTest {
  static final Path SCRIPT = Path.of("..", "scripts", "test.sh").toAbsolutePath().normalize();
  static final String MISSING_PG = "/nonexistent/postgresql/15/bin";

  record Run(int exitCode, String output) {}

  @Test
  void theCheckNamesWhatIsMissingAndTheCommandThatInstallsIt() throws Exception {
    Run r = run(List.of("bash", SCRIPT.toString(), "--check"), MISSING_PG);
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.output().lines().toList())
        .singleElement()
        .asString()
        .startsWith("engram tests: missing ")
        .contains("PostgreSQL 15 (" + MISSING_PG + "/initdb)", "pgvector in PostgreSQL 15")
        .endsWith(SCRIPT + " --install");
  }

  @Test
  void withoutRootItInstallsNothingAndBuildsNothing(@TempDir Path dir) throws Exception {
    // a copy that any user may read (the checkout's folders may not be), in a tree of its own
    Path copy = dir.resolve("scripts").resolve("test.sh");
    Files.createDirectories(copy.getParent());
    Files.copy(SCRIPT, copy);
    for (Path p : List.of(dir, copy.getParent(), copy)) {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    List<String> command = new ArrayList<>();
    if (isRoot()) { // run as nobody, as a user without root would
      command.addAll(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
    }
    command.addAll(List.of("bash", copy.toString()));
    Run r = run(command, MISSING_PG);
    assertThat(r.exitCode()).as(r.output()).isEqualTo(2);
    assertThat(r.output())
        .contains("install with: sudo " + copy + " --install")
        .contains("not root, so nothing was installed and nothing was built")
        .doesNotContain("Apache Maven");
  }

  @Test
  void theCheckPassesWhereTheSuiteRuns() throws Exception {
    Run r = run(List.of("bash", SCRIPT.toString(), "--check"), null);
    assertThat(r.output()).isEmpty();
    assertThat(r.exitCode()).isZero();
  }

  private static boolean isRoot() throws IOException, InterruptedException {
    return run(List.of("id", "-u"), null).output().strip().equals("0");
  }

  private static Run run(List<String> command, String pgBin)
      throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .directory(Path.of(System.getProperty("java.io.tmpdir")).toFile());
    pb.environment().remove("ENGRAM_PG_BIN");
    if (pgBin != null) {
      pb.environment().put("ENGRAM_PG_BIN", pgBin);
    }
    Process p = pb.start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(2, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(command + " did not finish: " + out);
    }
    return new Run(p.exitValue(), out);
  }
}

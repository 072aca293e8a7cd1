package dev.engram.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No test of the project skips itself: a test that cannot run on a machine fails and says what is
 * missing (the prerequisites are checked by {@code scripts/test.sh}, which the root POM runs
 * first). This scans every module's test sources for JUnit's ways of skipping: assumptions,
 * {@code @Disabled}, the conditional {@code @EnabledIf} / {@code @DisabledIf} families and
 * extensions that disable tests ({@code ExecutionCondition}).
 */
class NoSilentSkipTest {
  static final Pattern SKIP =
      Pattern.compile(
          "\\bAssumptions\\b|\\bassume(True|False|That)\\s*\\(|@Disabled\\b|@(Enabled|Disabled)(If|On|For)\\w*"
              + "|\\bExecutionCondition\\b|ConditionEvaluationResult\\.disabled");

  @Test
  void noTestSourceSkipsItself() {
    Path root = Path.of("..").toAbsolutePath().normalize();
    List<String> skips = skipsUnder(root);
    assertThat(skips).as("tests that skip themselves instead of failing").isEmpty();
  }

  @Test
  void theScanFindsASkipPlantedInAModulesTests(@TempDir Path root) throws IOException {
    Path test = root.resolve("engram-x/src/test/java/dev/engram/x/PlantedTest.java");
    Files.createDirectories(test.getParent());
    Files.writeString(test, "class PlantedTest {\n  @Disabled\n  void t() {}\n}\n");
    Path main = root.resolve("engram-x/src/main/java/dev/engram/x/Main.java");
    Files.createDirectories(main.getParent());
    Files.writeString(main, "class Main { /* @Disabled is a word here */ }\n");
    assertThat(skipsUnder(root))
        .containsExactly("engram-x/src/test/java/dev/engram/x/PlantedTest.java:2: @Disabled");
  }

  @Test
  void theScanFindsEachWayOfSkipping() {
    assertThat(
            List.of(
                "import static org.junit.jupiter.api.Assumptions.assumeTrue;",
                "    assumeTrue(hasGraph());",
                "  @Disabled(\"flaky\")",
                "  @EnabledIfEnvironmentVariable(named = \"CI\", matches = \"true\")",
                "  @DisabledOnOs(OS.WINDOWS)",
                "  static final class Differences implements ExecutionCondition {",
                "      return ConditionEvaluationResult.disabled(\"differs\");"))
        .allMatch(line -> SKIP.matcher(line).find());
    assertThat(SKIP.matcher("assertThat(result.hits()).isEmpty();").find()).isFalse();
  }

  static List<String> skipsUnder(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(f -> root.relativize(f).toString().matches("[^/]+(/[^/]+)?/src/test/java/.*"))
          .filter(f -> !f.getFileName().toString().equals("NoSilentSkipTest.java"))
          .flatMap(f -> matches(root, f).stream())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<String> matches(Path root, Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return IntStream.range(0, lines.size())
          .filter(i -> SKIP.matcher(lines.get(i)).find())
          .mapToObj(i -> root.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code engram-bom} manages every published module of the build at the build's version, so a new
 * module cannot be forgotten there. Reads the poms of the source tree (the test runs in this
 * module's directory).
 */
class BomTest {
  /**
   * Modules that are not published: the JMH benchmarks, the end-to-end tests, the examples and the
   * BOM itself.
   */
  private static final Set<String> UNPUBLISHED =
      Set.of("engram-bom", "engram-jmh", "engram-it", "examples");

  @Test
  void theBomManagesEveryPublishedModuleAtTheBuildsVersion() throws IOException {
    String root = Files.readString(Path.of("..", "pom.xml"));
    String bom = Files.readString(Path.of("..", "engram-bom", "pom.xml"));
    List<String> published =
        all(root, "<module>([^<]+)</module>").stream()
            .filter(m -> !UNPUBLISHED.contains(m))
            .toList();
    assertThat(published).contains("engram-core", "engram-embedded", "engram-onnx");
    assertThat(all(bom, "<artifactId>(engram-[^<]+)</artifactId>"))
        .filteredOn(a -> !a.equals("engram-bom"))
        .containsExactlyInAnyOrderElementsOf(published);
    assertThat(first(bom, "<artifactId>engram-bom</artifactId>\\s*<version>([^<]+)</version>"))
        .isEqualTo(
            first(root, "<artifactId>engram-parent</artifactId>\\s*<version>([^<]+)</version>"));
  }

  private static List<String> all(String text, String regex) {
    return Pattern.compile(regex).matcher(text).results().map(r -> r.group(1).trim()).toList();
  }

  private static String first(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    assertThat(m.find()).as(regex).isTrue();
    return m.group(1);
  }
}

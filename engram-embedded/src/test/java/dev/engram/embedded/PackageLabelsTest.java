package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package of every published module says in its {@code package-info.java} whether it is
 * public API, an SPI or internal (docs/ARCHITECTURE.md, "Public API and internals"). Reads the
 * source tree.
 */
class PackageLabelsTest {
  private static final Set<String> UNPUBLISHED = Set.of("engram-jmh", "engram-it", "engram-bom");
  private static final List<String> LABELS =
      List.of("<b>Public API.</b>", "<b>SPI.</b>", "<b>Internal.</b>");

  @Test
  void everyPackageSaysWhatItIs() throws IOException {
    List<String> unlabelled = new ArrayList<>();
    int packages = 0;
    try (Stream<Path> modules = Files.list(Path.of(".."))) {
      for (Path module :
          modules
              .filter(m -> m.getFileName().toString().startsWith("engram-"))
              .filter(m -> !UNPUBLISHED.contains(m.getFileName().toString()))
              .toList()) {
        Path sources = module.resolve("src/main/java");
        if (!Files.isDirectory(sources)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(sources)) {
          for (Path dir :
              files
                  .filter(f -> f.toString().endsWith(".java"))
                  .map(Path::getParent)
                  .distinct()
                  .toList()) {
            packages++;
            Path info = dir.resolve("package-info.java");
            String text = Files.exists(info) ? Files.readString(info) : "";
            if (LABELS.stream().noneMatch(text::contains)) {
              unlabelled.add(sources.relativize(dir).toString());
            }
          }
        }
      }
    }
    assertThat(packages).isGreaterThan(25);
    assertThat(unlabelled).as("packages without a Public API / SPI / Internal label").isEmpty();
  }
}

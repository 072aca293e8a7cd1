package dev.engram.cli;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The frame of the tests that run commands against one data directory per test: a temporary {@link
 * #dir}, and {@link #cli} running every command with {@code --data-dir dir/data}.
 */
abstract class CliTestCase {
  @TempDir Path dir;

  Cli cli;

  @BeforeEach
  final void openCli() {
    cli = new Cli(dir.resolve("data"));
  }
}

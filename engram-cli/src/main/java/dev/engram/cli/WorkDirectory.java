package dev.engram.cli;

import dev.engram.bench.scale.DataDirectories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The directory a benchmark works in: the one the user named, kept afterwards, or a new temporary
 * one that {@link #close()} deletes with everything under it.
 */
final class WorkDirectory implements AutoCloseable {
  private final Path path;
  private final boolean temporary;

  private WorkDirectory(Path path, boolean temporary) {
    this.path = path;
    this.temporary = temporary;
  }

  /**
   * {@code kept} as it is (not created here), else a new temporary directory named with {@code
   * prefix}.
   */
  static WorkDirectory keptOrTemporary(Optional<Path> kept, String prefix) throws IOException {
    return kept.isPresent() ? new WorkDirectory(kept.get(), false) : temporary(prefix);
  }

  /** A new temporary directory named with {@code prefix}, deleted on {@link #close()}. */
  static WorkDirectory temporary(String prefix) throws IOException {
    return new WorkDirectory(Files.createTempDirectory(prefix), true);
  }

  Path path() {
    return path;
  }

  /** True if {@link #close()} deletes the directory. */
  boolean isTemporary() {
    return temporary;
  }

  /** Deletes a temporary directory and everything under it; leaves a kept one as it is. */
  @Override
  public void close() {
    if (temporary) {
      DataDirectories.deleteTree(path);
    }
  }
}

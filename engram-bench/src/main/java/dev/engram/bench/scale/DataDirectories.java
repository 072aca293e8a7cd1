package dev.engram.bench.scale;

import dev.engram.embedded.EmbeddedStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** File-system helpers of the scale benchmark: emptiness check, sizes, deletion. */
public final class DataDirectories {
  private DataDirectories() {}

  /**
   * Checks that {@code dir} does not exist or is an empty directory, so that a run never mixes with
   * existing data.
   *
   * @throws IllegalArgumentException if it is a file or a non-empty directory
   */
  public static void requireEmpty(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("dataDir: '" + dir + "' is a file, not a directory");
    }
    try (Stream<Path> entries = Files.list(dir)) {
      if (entries.findAny().isPresent()) {
        throw new IllegalArgumentException(
            "dataDir: '"
                + dir
                + "' is not empty; the scale benchmark needs an empty"
                + " or new directory");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  /**
   * The sizes of a closed data directory: the SQLite files ({@code engram.db*}), the index, and the
   * total.
   */
  static ScaleReport.Disk size(Path dir, long memories) {
    long total = bytes(dir);
    long index = bytes(dir.resolve(EmbeddedStorage.INDEX_DIRECTORY));
    long database = 0;
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path p : entries.toList()) {
        if (p.getFileName().toString().startsWith(EmbeddedStorage.DATABASE_FILE)
            && Files.isRegularFile(p)) {
          database += Files.size(p);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot measure " + dir, e);
    }
    return new ScaleReport.Disk(
        total, database, index, ScaleReport.round((double) total / memories));
  }

  /** The total size of the regular files under {@code path} (0 if it does not exist). */
  public static long bytes(Path path) {
    if (!Files.exists(path)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(path)) {
      long sum = 0;
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        sum += Files.size(p);
      }
      return sum;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot measure " + path, e);
    }
  }

  /** Deletes {@code dir} and everything under it; does nothing if it does not exist. */
  public static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}

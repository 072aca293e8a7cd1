package dev.engram.embedded;

import dev.engram.spi.Storage;
import dev.engram.testing.MemoryContractTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The storage contract on the embedded default: SQLite record and Lucene index in one data
 * directory.
 */
class EmbeddedMemoryContractTest extends MemoryContractTest {

  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return EmbeddedStorage.open(dir, dimension);
  }

  /** Deletes the whole index directory; the record stays. */
  @Override
  protected void damageIndex(Path dir) {
    deleteRecursively(dir.resolve(EmbeddedStorage.INDEX_DIRECTORY));
  }

  static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

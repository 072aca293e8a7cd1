package dev.engram.bench.scale;

import dev.engram.embedded.EmbeddedStorage;
import dev.engram.spi.Storage;
import java.nio.file.Path;
import java.util.Objects;

/** The embedded store (SQLite + Lucene) in a data directory, which must be absent or empty. */
public record EmbeddedBenchStore(Path dataDir) implements BenchStore {
  public EmbeddedBenchStore {
    Objects.requireNonNull(dataDir, "dataDir");
  }

  @Override
  public String name() {
    return "embedded";
  }

  @Override
  public void requireEmpty() {
    DataDirectories.requireEmpty(dataDir);
  }

  @Override
  public Storage open(int dimension) {
    return EmbeddedStorage.open(dataDir, dimension);
  }

  /** The SQLite files ({@code engram.db*}) as the record, the Lucene directory as the index. */
  @Override
  public ScaleReport.Disk size(long memories) {
    return DataDirectories.size(dataDir, memories);
  }
}

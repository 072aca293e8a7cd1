package dev.engram;

import java.nio.file.Path;

/** Another process owns the data directory. One process may open a data directory at a time. */
public class DataDirectoryLockedException extends StorageException {
  public DataDirectoryLockedException(Path dir) {
    super(
        "data directory "
            + dir.toAbsolutePath()
            + " is locked by another process;"
            + " stop that process or choose another --data-dir");
  }
}

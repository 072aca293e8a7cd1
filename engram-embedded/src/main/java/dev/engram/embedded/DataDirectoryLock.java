package dev.engram.embedded;

import dev.engram.DataDirectoryLockedException;
import dev.engram.StorageException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive OS lock on a data directory's lock file. The operating system releases it when the
 * process dies, so a killed process never leaves a stale lock. A second lock of the same file
 * inside one JVM is refused too (the JVM reports it as an {@link OverlappingFileLockException}).
 * The lock file itself is never deleted.
 */
final class DataDirectoryLock {
  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirectoryLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock without waiting.
   *
   * @throws DataDirectoryLockedException if another process or another open storage in this JVM
   *     holds it
   */
  static DataDirectoryLock acquire(Path dataDir, Path lockFile) {
    FileChannel channel;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new StorageException(
          "could not open the lock file " + lockFile + ": " + e.getMessage(), e);
    }
    try {
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw new DataDirectoryLockedException(dataDir);
      }
      return new DataDirectoryLock(lockFile, channel, lock);
    } catch (OverlappingFileLockException e) {
      closeQuietly(channel);
      throw new DataDirectoryLockedException(dataDir);
    } catch (DataDirectoryLockedException e) {
      closeQuietly(channel);
      throw e;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StorageException("could not lock " + lockFile + ": " + e.getMessage(), e);
    }
  }

  /** Releases the lock and closes the file. */
  void release() {
    try {
      try {
        if (lock.isValid()) {
          lock.release();
        }
      } finally {
        channel.close();
      }
    } catch (IOException e) {
      throw new StorageException("could not release the lock " + file + ": " + e.getMessage(), e);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // the lock was not taken; nothing to release
    }
  }
}

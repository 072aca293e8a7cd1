package dev.engram.embedded;

import dev.engram.DataDirectoryLockedException;
import java.nio.file.Path;

/**
 * Test helper run in a child JVM: {@code LockHolder hold <dir>} opens the data directory, prints
 * {@code LOCKED} and keeps it open until its standard input closes; {@code LockHolder try <dir>}
 * tries to open it and prints {@code OPENED} or {@code REFUSED <message>}.
 */
public final class LockHolder {
  private LockHolder() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    if (args[0].equals("hold")) {
      try (EmbeddedStorage storage = EmbeddedStorage.open(dir, 64)) {
        System.out.println("LOCKED " + storage.dataDir());
        System.out.flush();
        while (System.in.read() != -1) {
          // wait for the parent to close our standard input
        }
      }
      return;
    }
    try (EmbeddedStorage storage = EmbeddedStorage.open(dir, 64)) {
      System.out.println("OPENED " + storage.dataDir());
    } catch (DataDirectoryLockedException e) {
      System.out.println("REFUSED " + e.getMessage());
    }
    System.out.flush();
  }
}

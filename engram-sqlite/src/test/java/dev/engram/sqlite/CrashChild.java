package dev.engram.sqlite;

import dev.engram.ChangePipelines;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.util.List;

/**
 * The process {@link CrashRecoveryTest} kills: it adds memories one change set at a time, forever,
 * and prints {@code ACK <id>} after each {@code apply} has returned.
 */
public final class CrashChild {
  private CrashChild() {}

  public static void main(String[] args) {
    SqliteMemoryStore store = SqliteMemoryStore.open(Path.of(args[0]), Durability.valueOf(args[1]));
    for (long i = 0; ; i++) {
      StoredMemory a = Memories.memory().text("fact " + i).stored();
      StoredMemory b = Memories.memory().text("fact " + i + "b").stored();
      store.apply(
          new ChangeSet(
              "t1",
              List.of(
                  MemoryChange.add(a, null, null, ChangePipelines.RAW),
                  MemoryChange.add(b, null, null, ChangePipelines.RAW)),
              List.of(
                  new ChangeSet.WindowAppend(
                      Scope.user("alice"), List.of(Message.user("turn " + i)), 5))));
      System.out.println("ACK " + a.id() + " " + b.id());
      System.out.flush();
    }
  }
}

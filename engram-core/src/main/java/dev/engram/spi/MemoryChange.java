package dev.engram.spi;

import dev.engram.EventType;
import dev.engram.Role;
import java.util.Objects;

/**
 * One change to a memory, as the engine hands it to a store. The store writes the memory row and one history row
 * for it in the same transaction.
 *
 * @param event        ADD, UPDATE or DELETE (NOOP changes are never sent to a store)
 * @param memory       the new state for ADD and UPDATE; the state being removed for DELETE
 * @param previousText the text before an UPDATE or DELETE, else null
 * @param actorId      the speaker whose message caused it, or null
 * @param role         that message's role, or null
 */
public record MemoryChange(EventType event, StoredMemory memory, String previousText, String actorId,
                           dev.engram.Role role) {
  public MemoryChange {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(memory, "memory");
    if (event == EventType.NOOP) {
      throw new IllegalArgumentException("NOOP is not a change");
    }
  }

  public static MemoryChange add(StoredMemory m, String actorId, Role role) {
    return new MemoryChange(EventType.ADD, m, null, actorId, role);
  }

  public static MemoryChange update(StoredMemory m, String previousText) {
    return new MemoryChange(EventType.UPDATE, m, previousText, null, null);
  }

  public static MemoryChange delete(StoredMemory m) {
    return new MemoryChange(EventType.DELETE, m, m.item().text(), null, null);
  }
}

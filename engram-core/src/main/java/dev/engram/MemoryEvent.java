package dev.engram;

import java.util.Objects;

/**
 * What an add did to one memory.
 *
 * @param id the memory id
 * @param memory the memory text after the event (the removed text for DELETE)
 * @param event ADD, UPDATE, DELETE or NOOP
 * @param previousMemory the text before an UPDATE, else null
 * @param actorId speaker name for verbatim adds, else null
 * @param role source role for verbatim adds, else null
 */
public record MemoryEvent(
    String id, String memory, EventType event, String previousMemory, String actorId, Role role) {
  public MemoryEvent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(event, "event");
  }
}

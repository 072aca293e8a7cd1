package dev.engram.spi;

import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.Role;
import java.time.Instant;
import java.util.Objects;

/**
 * One change to a memory, as the engine hands it to a store. The store writes the memory row and
 * one history row for it in the same transaction.
 *
 * @param event ADD, UPDATE or DELETE (NOOP changes are never sent to a store)
 * @param memory the new state for ADD and UPDATE; the state being removed for DELETE
 * @param previousText the text before an UPDATE or DELETE, else null
 * @param actorId the speaker whose message caused it, or null
 * @param role that message's role, or null
 * @param pipeline which path through the engine made the change ({@link ChangePipelines}), written
 *     to the history row as {@link dev.engram.HistoryEntry#pipeline()}
 * @param at when the change was made, by the engine's clock: the memory's {@code createdAt} for
 *     ADD, its {@code updatedAt} for UPDATE, the moment of the delete for DELETE; the history row's
 *     time, so that a store never reads a clock of its own
 */
public record MemoryChange(
    EventType event,
    StoredMemory memory,
    String previousText,
    String actorId,
    dev.engram.Role role,
    String pipeline,
    Instant at) {
  public MemoryChange {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(at, "at");
    ChangePipelines.check("pipeline", pipeline);
    if (event == EventType.NOOP) {
      throw new IllegalArgumentException("NOOP is not a change");
    }
  }

  /** A new memory, said by {@code actorId} in a message of {@code role} (both may be null). */
  public static MemoryChange add(StoredMemory m, String actorId, Role role, String pipeline) {
    return new MemoryChange(EventType.ADD, m, null, actorId, role, pipeline, m.item().createdAt());
  }

  /** A new state of an existing memory whose text was {@code previousText}. */
  public static MemoryChange update(StoredMemory m, String previousText, String pipeline) {
    return new MemoryChange(
        EventType.UPDATE, m, previousText, null, null, pipeline, m.item().updatedAt());
  }

  /**
   * The removal of a memory (its state before the delete) at {@code at}, read from the engine's
   * clock.
   */
  public static MemoryChange delete(StoredMemory m, String pipeline, Instant at) {
    return new MemoryChange(EventType.DELETE, m, m.item().text(), null, null, pipeline, at);
  }

  /** This change with another memory state (the same event, texts, speaker and pipeline). */
  public MemoryChange withMemory(StoredMemory newMemory) {
    return new MemoryChange(event, newMemory, previousText, actorId, role, pipeline, at);
  }
}

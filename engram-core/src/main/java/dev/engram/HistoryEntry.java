package dev.engram;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of a memory's audit trail. Every change to a memory writes one, in the same transaction.
 *
 * @param seq the change's sequence number (increases with every change in the data directory)
 * @param memoryId the memory
 * @param event ADD, UPDATE or DELETE
 * @param oldText the text before the change, or null for ADD
 * @param newText the text after the change, or null for DELETE
 * @param actorId the speaker whose message caused it, or null
 * @param role that message's role, or null
 * @param at when the change was made (UTC)
 * @param pipeline which path through the engine made the change, one of {@link ChangePipelines}
 *     (for example {@code raw}, {@code offline}, {@code update}); {@link ChangePipelines#UNKNOWN}
 *     for a row written before history recorded it; never null
 */
public record HistoryEntry(
    long seq,
    String memoryId,
    EventType event,
    String oldText,
    String newText,
    String actorId,
    Role role,
    Instant at,
    String pipeline) {
  public HistoryEntry {
    Objects.requireNonNull(pipeline, "pipeline");
  }
}

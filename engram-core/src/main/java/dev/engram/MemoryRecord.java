package dev.engram;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything Engram holds of one memory, as {@link Memory#exportRecords} reads it and {@link
 * Memory#importRecords} writes it back: the memory's current state (text, hash, scope, actor and
 * role, metadata, times, event time, expiration, provenance source ids), absent once the memory was
 * deleted, and its full history, oldest first. Embeddings are not part of a record: an import
 * embeds the text again with the target's embedder. Immutable.
 *
 * @param id the memory id
 * @param memory the current state, or empty if the memory was deleted (its history outlives it)
 * @param context the memory's source context (the words of the messages it was drawn from, kept for
 *     keyword search: {@link dev.engram.spi.StoredMemory#context}); {@code ""} if it has none or
 *     was deleted. An import keeps it
 * @param history the audit trail, oldest first; never empty. An import keeps every row's event,
 *     texts, actor, role, time and pipeline, and gives it a new sequence number of the target store
 */
public record MemoryRecord(
    String id, Optional<MemoryItem> memory, List<HistoryEntry> history, String context) {

  /** A record without a source context. */
  public MemoryRecord(String id, Optional<MemoryItem> memory, List<HistoryEntry> history) {
    this(id, memory, history, "");
  }

  /**
   * @throws ValidationException if the id is blank, the history is empty, names another memory or a
   *     malformed pipeline, or the current state has another id
   */
  public MemoryRecord {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(history, "history");
    Objects.requireNonNull(context, "context");
    if (id == null || id.isBlank()) {
      throw new ValidationException("id", "must not be empty");
    }
    if (memory.isPresent() && !memory.get().id().equals(id)) {
      throw new ValidationException(
          "id", "is '" + id + "' but the memory's id is '" + memory.get().id() + "'");
    }
    history = List.copyOf(history);
    if (history.isEmpty()) {
      throw new ValidationException("history", "must hold at least one row (the memory's ADD)");
    }
    for (int i = 0; i < history.size(); i++) {
      HistoryEntry h = history.get(i);
      if (!id.equals(h.memoryId())) {
        throw new ValidationException(
            "history[" + i + "].memory_id",
            "is '" + h.memoryId() + "', not the record's id '" + id + "'");
      }
      if (h.event() == null || h.event() == EventType.NOOP) {
        throw new ValidationException(
            "history[" + i + "].event", "must be ADD, UPDATE or DELETE, got " + h.event());
      }
      if (h.at() == null) {
        throw new ValidationException("history[" + i + "].created_at", "is required");
      }
      ChangePipelines.check("history[" + i + "].pipeline", h.pipeline());
    }
  }

  /** The record of a memory that exists. */
  public static MemoryRecord live(MemoryItem memory, List<HistoryEntry> history) {
    return new MemoryRecord(memory.id(), Optional.of(memory), history);
  }

  /** The record of a deleted memory: only its history is left. */
  public static MemoryRecord deleted(String id, List<HistoryEntry> history) {
    return new MemoryRecord(id, Optional.empty(), history);
  }

  /** True if the memory was deleted (only its history is left). */
  public boolean isDeleted() {
    return memory.isEmpty();
  }
}

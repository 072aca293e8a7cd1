package dev.engram.spi;

import dev.engram.HistoryEntry;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One memory as an import hands it to {@link MemoryStore#restore}: its current state with a fresh
 * embedding (absent if it was deleted) and its history rows, which the store writes as they are.
 *
 * @param id the memory id
 * @param current the memory row to write, or empty for a deleted memory
 * @param history the history rows, oldest first, never empty; their sequence numbers are ignored
 *     (the store assigns new ones)
 */
public record RestoredMemory(
    String id, Optional<StoredMemory> current, List<HistoryEntry> history) {
  public RestoredMemory {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(current, "current");
    history = List.copyOf(history);
    if (history.isEmpty()) {
      throw new IllegalArgumentException("memory " + id + " has no history rows");
    }
    if (current.isPresent() && !current.get().id().equals(id)) {
      throw new IllegalArgumentException(
          "memory " + id + " carries the state of " + current.get().id());
    }
  }
}

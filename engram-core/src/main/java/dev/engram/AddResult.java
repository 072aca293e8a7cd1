package dev.engram;

import java.util.List;

/**
 * The outcome of one add: one event per memory touched, in the order they were applied.
 *
 * @param events the events; empty if nothing was worth remembering
 */
public record AddResult(List<MemoryEvent> events) {
  public AddResult {
    events = List.copyOf(events);
  }
}

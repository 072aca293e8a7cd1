package dev.engram;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of one add: one event per memory touched, in the order they were applied, what the
 * add spent on language models, and, with graph memory on, what it did to the graph.
 *
 * @param events the events; empty if nothing was worth remembering
 * @param usage language-model calls, tokens and time ({@link Usage#NONE} without a model)
 * @param relations the graph's changes, or empty if graph memory is off
 */
public record AddResult(
    List<MemoryEvent> events, Usage usage, Optional<RelationChanges> relations) {
  public AddResult {
    events = List.copyOf(events);
    Objects.requireNonNull(usage, "usage");
    Objects.requireNonNull(relations, "relations");
  }

  /** A result without graph memory. */
  public AddResult(List<MemoryEvent> events, Usage usage) {
    this(events, usage, Optional.empty());
  }

  /** A result that used no language model, without graph memory. */
  public AddResult(List<MemoryEvent> events) {
    this(events, Usage.NONE);
  }
}

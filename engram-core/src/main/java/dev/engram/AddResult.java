package dev.engram;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one add: one event per memory touched, in the order they were applied, and what the add spent
 * on language models.
 *
 * @param events the events; empty if nothing was worth remembering
 * @param usage  language-model calls, tokens and time ({@link Usage#NONE} without a model)
 */
public record AddResult(List<MemoryEvent> events, Usage usage) {
  public AddResult {
    events = List.copyOf(events);
    Objects.requireNonNull(usage, "usage");
  }

  /** A result that used no language model. */
  public AddResult(List<MemoryEvent> events) {
    this(events, Usage.NONE);
  }
}

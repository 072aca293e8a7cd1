package dev.engram.server.events;

import java.util.Objects;

/**
 * An add event a server has just claimed.
 *
 * @param event the event as claimed (RUNNING)
 * @param takenOver true if it was RUNNING under another lease that had ended (its server died or
 *     stalled): its add may already be in the record
 */
public record Claim(AddEvent event, boolean takenOver) {
  public Claim {
    Objects.requireNonNull(event, "event");
  }
}

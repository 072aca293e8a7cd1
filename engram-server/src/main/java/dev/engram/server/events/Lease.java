package dev.engram.server.events;

import java.time.Instant;
import java.util.Objects;

/**
 * A server's hold on the add events it runs: its owner id (one per running server) and when the
 * hold ends unless it is renewed. After {@code until}, any server may claim the event again.
 *
 * @param owner the id of the server holding the event
 * @param until when the lease ends
 */
public record Lease(String owner, Instant until) {
  public Lease {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(until, "until");
    if (owner.isBlank()) {
      throw new IllegalArgumentException("owner must not be blank");
    }
  }
}

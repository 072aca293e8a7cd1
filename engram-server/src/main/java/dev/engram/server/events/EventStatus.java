package dev.engram.server.events;

/** Where an asynchronous add is: mem0's event states. */
public enum EventStatus {
  /** Accepted and stored, waiting for a worker. */
  PENDING,
  /** A worker is running it. */
  RUNNING,
  /** Done; its results are stored. */
  SUCCEEDED,
  /** Given up; its error says why. Nothing of it was written. */
  FAILED;

  /** True for SUCCEEDED and FAILED. */
  public boolean finished() {
    return this == SUCCEEDED || this == FAILED;
  }
}

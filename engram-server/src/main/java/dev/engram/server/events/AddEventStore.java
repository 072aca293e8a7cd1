package dev.engram.server.events;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Durable add events: an accepted add is stored before the client hears {@code PENDING}, so a restart finds it and
 * finishes it. Thread-safe.
 */
public interface AddEventStore extends AutoCloseable {

  /** Stores a new pending event (committed when this returns). */
  void insert(AddEvent event);

  /** Marks an event running. */
  void markRunning(String id, Instant at);

  /** Marks an event succeeded with its results JSON. */
  void markSucceeded(String id, String resultsJson, Instant at);

  /** Marks an event failed with the reason. */
  void markFailed(String id, String error, Instant at);

  /** An event of a tenant, or empty (another tenant's event is never returned). */
  Optional<AddEvent> get(String tenant, String id);

  /** A tenant's events, newest first. */
  List<AddEvent> list(String tenant, int offset, int limit);

  /** How many events a tenant has. */
  long count(String tenant);

  /** Every event not yet finished (PENDING or RUNNING), oldest first: the work a restart resumes. */
  List<AddEvent> unfinished();

  @Override
  void close();
}

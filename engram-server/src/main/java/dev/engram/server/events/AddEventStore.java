package dev.engram.server.events;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Durable add events: an accepted add is stored before the client hears {@code PENDING}, so a
 * restart (or another server on the same store) finds it and finishes it. Thread-safe.
 *
 * <p>Several servers may share one store ({@link #singleProcess()} false: PostgreSQL). An event is
 * run by the server that claims it: {@link #claimNext} makes it RUNNING under a lease (an owner and
 * an end time) atomically, so no two servers run the same event; the owner renews its leases while
 * it runs them ({@link #renewLeases}), and an event whose owner died is claimed again by any server
 * once its lease has ended. Finishing an event ({@link #markSucceeded}, {@link #markFailed}) takes
 * effect only for the event's current owner. Every time is the caller's (its injected clock); the
 * store never reads a clock of its own.
 */
public interface AddEventStore extends AutoCloseable {

  /**
   * Stores a new PENDING event (committed when this returns); any server may claim it.
   *
   * @throws IllegalArgumentException if the event is not PENDING
   */
  void insert(AddEvent event);

  /**
   * Stores an event that has already finished (SUCCEEDED with its results or FAILED with its error,
   * with its start and completion times), for an add its server ran at once ({@code owner}); no
   * server ever claims it.
   *
   * @throws IllegalArgumentException if the event is not finished
   */
  void insertFinished(AddEvent event, String owner);

  /**
   * Claims the oldest event that is PENDING, or RUNNING under a lease that ended at or before
   * {@code now}, for {@code lease}'s owner: it becomes RUNNING, started at {@code now}. Atomic
   * across every process sharing the store.
   *
   * @return the claimed event, or empty if none is waiting
   */
  Optional<Claim> claimNext(Lease lease, Instant now);

  /**
   * Extends to {@code lease.until()} the leases of those of {@code ids} that are RUNNING under
   * {@code lease}'s owner; returns how many. An event its owner no longer runs (its outcome could
   * not be recorded) is left to lapse, so it is taken over.
   */
  int renewLeases(Lease lease, Collection<String> ids);

  /**
   * Ends the lease of every RUNNING event at {@code now}, so they are claimed again. Only for a
   * store that one process uses at a time ({@link #singleProcess()}), at start: an event found
   * RUNNING was left by a process that died.
   */
  int endAllLeases(Instant now);

  /**
   * Marks an event of {@code owner} succeeded with its results JSON; false if the event is not (or
   * no longer) its.
   */
  boolean markSucceeded(String id, String owner, String resultsJson, Instant at);

  /**
   * Marks an event of {@code owner} failed with the reason; false if the event is not (or no
   * longer) its.
   */
  boolean markFailed(String id, String owner, String error, Instant at);

  /** An event of a tenant, or empty (another tenant's event is never returned). */
  Optional<AddEvent> get(String tenant, String id);

  /** A tenant's events, newest first. */
  List<AddEvent> list(String tenant, int offset, int limit);

  /** How many events a tenant has. */
  long count(String tenant);

  /** How many events, of every tenant, wait for a server (PENDING). */
  long countPending();

  /** How many events, of every tenant, are not finished (PENDING or RUNNING). */
  long countUnfinished();

  /**
   * True if one process at a time runs this store's events (a data directory's {@code server.db},
   * which the data directory's lock keeps to one server), false if several servers share it.
   */
  boolean singleProcess();

  @Override
  void close();
}

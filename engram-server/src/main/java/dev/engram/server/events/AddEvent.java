package dev.engram.server.events;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One accepted asynchronous add, as stored.
 *
 * @param id the event id (a UUID), returned to the client
 * @param tenant the tenant of the key that made the request
 * @param status where it is
 * @param payload the validated request, as {@link AddPayload} JSON (scope, messages with source
 *     ids, options)
 * @param results the add's result JSON (mem0's {@code {"results": [...]}}) once it succeeded
 * @param error why it failed
 * @param createdAt when it was accepted
 * @param startedAt when a worker last started it
 * @param completedAt when it finished
 */
public record AddEvent(
    String id,
    String tenant,
    EventStatus status,
    String payload,
    Optional<String> results,
    Optional<String> error,
    Instant createdAt,
    Optional<Instant> startedAt,
    Optional<Instant> completedAt) {
  public AddEvent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(results, "results");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(completedAt, "completedAt");
  }

  /** A new pending event. */
  public static AddEvent pending(String id, String tenant, String payload, Instant at) {
    return new AddEvent(
        id,
        tenant,
        EventStatus.PENDING,
        payload,
        Optional.empty(),
        Optional.empty(),
        at,
        Optional.empty(),
        Optional.empty());
  }

  /** This event finished with mem0's results JSON, started and completed at the given times. */
  public AddEvent succeeded(String resultsJson, Instant startedAt, Instant completedAt) {
    return finished(
        EventStatus.SUCCEEDED, Optional.of(resultsJson), Optional.empty(), startedAt, completedAt);
  }

  /** This event failed for the reason given, started and completed at the given times. */
  public AddEvent failed(String reason, Instant startedAt, Instant completedAt) {
    return finished(
        EventStatus.FAILED, Optional.empty(), Optional.of(reason), startedAt, completedAt);
  }

  private AddEvent finished(
      EventStatus status,
      Optional<String> results,
      Optional<String> error,
      Instant startedAt,
      Instant completedAt) {
    return new AddEvent(
        id,
        tenant,
        status,
        payload,
        results,
        error,
        createdAt,
        Optional.of(startedAt),
        Optional.of(completedAt));
  }
}

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
}

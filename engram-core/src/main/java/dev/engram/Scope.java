package dev.engram;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Who a memory belongs to: a user, an agent and/or a run (session). At least one id is present. Ids
 * are trimmed; an id that is empty, contains whitespace or is longer than {@value #MAX_ID_LENGTH}
 * characters is rejected.
 *
 * <p>A scope matches a memory when every id the scope sets equals the memory's id of the same kind;
 * ids the scope leaves unset match anything. So {@code Scope.user("alice")} sees all of Alice's
 * memories, whatever their agent. Immutable and thread-safe.
 */
public final class Scope {
  /** Longest accepted id. */
  public static final int MAX_ID_LENGTH = 256;

  private final String userId;
  private final String agentId;
  private final String runId;

  private Scope(String userId, String agentId, String runId) {
    this.userId = userId;
    this.agentId = agentId;
    this.runId = runId;
  }

  /**
   * A scope from optional ids (null means absent).
   *
   * @throws ValidationException if no id is given or one is malformed
   */
  public static Scope of(String userId, String agentId, String runId) {
    String u = normalize("user_id", userId);
    String a = normalize("agent_id", agentId);
    String r = normalize("run_id", runId);
    if (u == null && a == null && r == null) {
      throw new ValidationException(
          "scope", "at least one of user_id, agent_id or run_id is required");
    }
    return new Scope(u, a, r);
  }

  public static Scope user(String userId) {
    return of(Objects.requireNonNull(userId, "userId"), null, null);
  }

  public static Scope agent(String agentId) {
    return of(null, Objects.requireNonNull(agentId, "agentId"), null);
  }

  public static Scope run(String runId) {
    return of(null, null, Objects.requireNonNull(runId, "runId"));
  }

  public Scope withUser(String id) {
    return of(id, agentId, runId);
  }

  public Scope withAgent(String id) {
    return of(userId, id, runId);
  }

  public Scope withRun(String id) {
    return of(userId, agentId, id);
  }

  public Optional<String> userId() {
    return Optional.ofNullable(userId);
  }

  public Optional<String> agentId() {
    return Optional.ofNullable(agentId);
  }

  public Optional<String> runId() {
    return Optional.ofNullable(runId);
  }

  /**
   * True if a memory with these ids lies inside this scope. Null arguments mean the memory has no
   * such id.
   */
  public boolean contains(String memoryUserId, String memoryAgentId, String memoryRunId) {
    return (userId == null || userId.equals(memoryUserId))
        && (agentId == null || agentId.equals(memoryAgentId))
        && (runId == null || runId.equals(memoryRunId));
  }

  /**
   * A stable key for the scope, as mem0 writes it: the present ids as {@code key=value}, sorted by
   * key, joined with {@code &}; {@code %}, {@code &} and {@code =} escaped.
   */
  public String key() {
    List<String> parts = new ArrayList<>(3);
    if (agentId != null) {
      parts.add("agent_id=" + escape(agentId));
    }
    if (runId != null) {
      parts.add("run_id=" + escape(runId));
    }
    if (userId != null) {
      parts.add("user_id=" + escape(userId));
    }
    return String.join("&", parts);
  }

  private static String escape(String s) {
    return s.replace("%", "%25").replace("&", "%26").replace("=", "%3D");
  }

  static String normalize(String field, String value) {
    if (value == null) {
      return null;
    }
    String v = value.trim();
    if (v.isEmpty()) {
      throw new ValidationException(field, "must not be empty or blank");
    }
    if (v.length() > MAX_ID_LENGTH) {
      throw new ValidationException(
          field, "is " + v.length() + " characters long; the limit is " + MAX_ID_LENGTH);
    }
    for (int i = 0; i < v.length(); i++) {
      if (Character.isWhitespace(v.charAt(i))) {
        throw new ValidationException(field, "'" + v + "' contains whitespace");
      }
    }
    return v;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Scope s
        && Objects.equals(userId, s.userId)
        && Objects.equals(agentId, s.agentId)
        && Objects.equals(runId, s.runId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(userId, agentId, runId);
  }

  @Override
  public String toString() {
    return "Scope[" + key() + "]";
  }
}

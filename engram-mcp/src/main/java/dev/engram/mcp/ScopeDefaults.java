package dev.engram.mcp;

import dev.engram.Scope;
import dev.engram.ValidationException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The user, agent and run ids a tool call uses when its arguments leave them out (given at startup:
 * command-line flags or {@code ENGRAM_USER_ID}, {@code ENGRAM_AGENT_ID}, {@code ENGRAM_RUN_ID}).
 * Each id a call names replaces the default of its kind; kinds it does not name keep the default.
 * Immutable.
 *
 * @param userId default user id
 * @param agentId default agent id
 * @param runId default run id
 */
public record ScopeDefaults(
    Optional<String> userId, Optional<String> agentId, Optional<String> runId) {
  /** Environment variable of the default user id. */
  public static final String USER_ENV = "ENGRAM_USER_ID";

  /** Environment variable of the default agent id. */
  public static final String AGENT_ENV = "ENGRAM_AGENT_ID";

  /** Environment variable of the default run id. */
  public static final String RUN_ENV = "ENGRAM_RUN_ID";

  /** Checks the ids (see {@link Scope#of}). */
  public ScopeDefaults {
    Objects.requireNonNull(userId, "userId");
    Objects.requireNonNull(agentId, "agentId");
    Objects.requireNonNull(runId, "runId");
    if (userId.isPresent() || agentId.isPresent() || runId.isPresent()) {
      Scope.of(userId.orElse(null), agentId.orElse(null), runId.orElse(null));
    }
  }

  /** No defaults: every call must name its scope. */
  public static ScopeDefaults none() {
    return new ScopeDefaults(Optional.empty(), Optional.empty(), Optional.empty());
  }

  /**
   * Defaults taken from {@value #USER_ENV}, {@value #AGENT_ENV} and {@value #RUN_ENV}; blank values
   * are absent.
   */
  public static ScopeDefaults fromEnvironment(Map<String, String> env) {
    return new ScopeDefaults(
        present(env.get(USER_ENV)), present(env.get(AGENT_ENV)), present(env.get(RUN_ENV)));
  }

  /** These defaults with each present id of {@code overrides} replacing the id of its kind. */
  public ScopeDefaults overriddenBy(ScopeDefaults overrides) {
    return new ScopeDefaults(
        overrides.userId.or(() -> userId),
        overrides.agentId.or(() -> agentId),
        overrides.runId.or(() -> runId));
  }

  /** The default scope, when at least one id is set. */
  public Optional<Scope> scope() {
    return userId.isEmpty() && agentId.isEmpty() && runId.isEmpty()
        ? Optional.empty()
        : Optional.of(Scope.of(userId.orElse(null), agentId.orElse(null), runId.orElse(null)));
  }

  /**
   * The scope of a call: the ids it names, else these defaults.
   *
   * @throws ValidationException naming {@code user_id} if neither the call nor the defaults give
   *     any id, or naming the id that is malformed
   */
  public Scope resolve(Optional<String> user, Optional<String> agent, Optional<String> run) {
    Optional<String> u = user.or(() -> userId);
    Optional<String> a = agent.or(() -> agentId);
    Optional<String> r = run.or(() -> runId);
    if (u.isEmpty() && a.isEmpty() && r.isEmpty()) {
      throw new ValidationException(
          "user_id",
          "no scope: pass user_id, agent_id or run_id (this server has no " + "default scope)");
    }
    return Scope.of(u.orElse(null), a.orElse(null), r.orElse(null));
  }

  private static Optional<String> present(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }
}

package dev.engram.cli;

import dev.engram.Scope;
import dev.engram.ValidationException;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The {@code --user-id}, {@code --agent-id} and {@code --run-id} options. */
public final class ScopeOptions {
  @Option(
      names = "--user-id",
      paramLabel = "ID",
      description = "The user whose memories these are.")
  String userId;

  @Option(
      names = "--agent-id",
      paramLabel = "ID",
      description = "The agent whose memories these are.")
  String agentId;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description = "The run (session) whose memories these are.")
  String runId;

  /**
   * The scope the options name.
   *
   * @throws ValidationException if none is given or one is malformed
   */
  public Scope scope() {
    return Scope.of(userId, agentId, runId);
  }

  /** The scope if any option is given (checked), else empty. */
  public Optional<Scope> optionalScope() {
    return userId == null && agentId == null && runId == null
        ? Optional.empty()
        : Optional.of(scope());
  }

  /**
   * The options' scope merged with one taken from elsewhere (a filter's top-level ids, a JSON
   * line): ids given only in one place are taken from there; an id given in both places must agree.
   *
   * @param other the other scope, if any
   * @param source how the other scope was given, for error messages (for example {@code filter})
   * @throws ValidationException if the two disagree, or if neither gives any id
   */
  public Scope mergedWith(Optional<Scope> other, String source) {
    Optional<Scope> own = optionalScope();
    if (other.isEmpty()) {
      return scope();
    }
    if (own.isEmpty()) {
      return other.get();
    }
    Scope a = own.get();
    Scope b = other.get();
    return Scope.of(
        pick("user_id", a.userId(), b.userId(), source),
        pick("agent_id", a.agentId(), b.agentId(), source),
        pick("run_id", a.runId(), b.runId(), source));
  }

  /**
   * The options' scope with ids overridden per kind by {@code override} (for per-line ids of an
   * import).
   *
   * @throws ValidationException if the result has no id or a malformed one
   */
  public Scope overriddenBy(String user, String agent, String run) {
    return Scope.of(
        user != null ? user : userId, agent != null ? agent : agentId, run != null ? run : runId);
  }

  /** True if {@code --user-id} was given. */
  public boolean hasUserId() {
    return userId != null;
  }

  private static String pick(
      String field, Optional<String> own, Optional<String> other, String source) {
    if (own.isPresent() && other.isPresent() && !own.get().equals(other.get())) {
      throw new ValidationException(
          field,
          "--"
              + field.replace('_', '-')
              + " '"
              + own.get()
              + "' and the "
              + source
              + "'s "
              + field
              + " '"
              + other.get()
              + "' differ");
    }
    return own.orElse(other.orElse(null));
  }
}

package dev.engram.langchain4j.memory;

import dev.engram.Scope;
import dev.langchain4j.invocation.InvocationParameters;
import java.util.Optional;

/**
 * Finds whose memories a LangChain4j call reads and writes. The default, {@link #standard()}, takes
 * the scope from the invocation parameters ({@value #USER_ID}, {@value #AGENT_ID}, {@value
 * #RUN_ID}) when any is given, else uses the chat memory id as the user id. No scope means no
 * memory is read or written: a call is never unscoped.
 */
@FunctionalInterface
public interface ScopeResolver {
  /** Invocation parameter naming the user. */
  String USER_ID = "engram_user_id";

  /** Invocation parameter naming the agent. */
  String AGENT_ID = "engram_agent_id";

  /** Invocation parameter naming the run. */
  String RUN_ID = "engram_run_id";

  /**
   * The scope of a call.
   *
   * @param chatMemoryId the AI service's chat memory id (may be absent)
   * @param parameters the invocation parameters (may be absent)
   */
  Optional<Scope> resolve(Optional<Object> chatMemoryId, Optional<InvocationParameters> parameters);

  /** Invocation parameters first, then the chat memory id as the user id. */
  static ScopeResolver standard() {
    return (memoryId, parameters) ->
        fromParameters(parameters)
            .or(() -> memoryId.map(String::valueOf).filter(s -> !s.isBlank()).map(Scope::user));
  }

  /** The chat memory id as the user id, within the given agent. */
  static ScopeResolver userPerMemoryId(String agentId) {
    return (memoryId, parameters) ->
        memoryId
            .map(String::valueOf)
            .filter(s -> !s.isBlank())
            .map(id -> Scope.of(id, agentId, null));
  }

  private static Optional<Scope> fromParameters(Optional<InvocationParameters> parameters) {
    return parameters.flatMap(
        p -> {
          String user = text(p, USER_ID);
          String agent = text(p, AGENT_ID);
          String run = text(p, RUN_ID);
          return user == null && agent == null && run == null
              ? Optional.empty()
              : Optional.of(Scope.of(user, agent, run));
        });
  }

  private static String text(InvocationParameters p, String key) {
    Object v = p.containsKey(key) ? p.get(key) : null;
    return v == null || String.valueOf(v).isBlank() ? null : String.valueOf(v);
  }
}

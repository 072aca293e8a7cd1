package dev.engram.pipeline;

import dev.engram.AddRequest;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.Usage;
import dev.engram.ValidationException;
import dev.engram.filter.Filter;
import dev.engram.spi.LanguageModel;
import dev.engram.spi.UsageMeter;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Procedural memory: a running summary of an agent's own steps, kept as one memory per agent scope
 * with metadata {@code memory_type: procedural_memory}. Each call summarises the previous record
 * and the new steps with one model call and stores the result: the first call adds the memory,
 * later calls update it, so its history holds every earlier version. Thread-safe if the memory is.
 */
public final class ProceduralMemory {
  /** The metadata key and value that mark a procedural memory (as in mem0). */
  public static final String TYPE_KEY = "memory_type";

  public static final String TYPE_VALUE = "procedural_memory";

  private final Memory memory;
  private final ModelCaller caller;
  private final int maxOutputTokens;

  public ProceduralMemory(Memory memory, ModelCaller caller, int maxOutputTokens) {
    this.memory = Objects.requireNonNull(memory, "memory");
    this.caller = Objects.requireNonNull(caller, "caller");
    this.maxOutputTokens = maxOutputTokens;
  }

  /** The outcome: the procedural memory after the call, and what the model call cost. */
  public record Result(MemoryItem memory, Usage usage) {}

  /**
   * Folds new steps into the agent's procedural memory.
   *
   * @param scope a scope with an agent id
   * @param steps the agent's new messages (actions and their results), oldest first
   * @throws ValidationException if the scope has no agent id or there are no steps
   */
  public Result record(Scope scope, List<Message> steps) {
    if (scope.agentId().isEmpty()) {
      throw new ValidationException("agent_id", "procedural memory needs an agent id in the scope");
    }
    if (steps.isEmpty()) {
      throw new ValidationException("messages", "at least one step is required");
    }
    MemoryItem previous = current(scope);
    String user =
        "## Previous record\n"
            + (previous == null ? "(none)" : previous.text())
            + "\n\n## New steps\n"
            + Prompts.transcript(steps);
    UsageMeter usage = new UsageMeter();
    String record =
        caller.callText(
            "procedural memory",
            new LanguageModel.Prompt(Prompts.PROCEDURAL, user, null, null, maxOutputTokens, 0.0),
            usage);
    MemoryItem stored;
    if (previous == null) {
      String id =
          memory
              .add(
                  AddRequest.builder(scope)
                      .message(new Message(Role.ASSISTANT, record, null, null, null))
                      .metadata(Map.of(TYPE_KEY, TYPE_VALUE))
                      .infer(false)
                      .build())
              .events()
              .get(0)
              .id();
      stored = memory.get(id).orElseThrow();
    } else {
      stored = memory.update(previous.id(), MemoryUpdate.text(record));
    }
    return new Result(stored, usage.snapshot());
  }

  /** The agent scope's procedural memory, or null. */
  private MemoryItem current(Scope scope) {
    List<MemoryItem> found =
        memory
            .list(ListRequest.of(scope).withFilter(Filter.eq(TYPE_KEY, TYPE_VALUE)).withPage(0, 1))
            .items();
    return found.isEmpty() ? null : found.get(0);
  }
}

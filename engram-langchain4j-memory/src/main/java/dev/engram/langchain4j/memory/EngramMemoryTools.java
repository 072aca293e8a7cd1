package dev.engram.langchain4j.memory;

import dev.engram.AddRequest;
import dev.engram.EngramException;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolMemoryId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Memory tools for AI services whose agent manages its own memory: {@code remember}, {@code recall}
 * and {@code forget}, each within the scope of the chat memory id ({@link ScopeResolver}); register
 * with {@code AiServices.builder(...).tools(new EngramMemoryTools(memory))}. The agent can reach
 * only that scope: {@code forget} deletes a memory only if it belongs to it. Failures are answered
 * to the model as text (the chat goes on). {@code remember} stores the fact as the model wrote it
 * (the model already distilled it).
 */
public final class EngramMemoryTools {
  private final Memory memory;
  private final ScopeResolver scopes;
  private final int recallTopK;

  public EngramMemoryTools(Memory memory) {
    this(memory, ScopeResolver.standard(), 5);
  }

  public EngramMemoryTools(Memory memory, ScopeResolver scopes, int recallTopK) {
    this.memory = Objects.requireNonNull(memory, "memory");
    this.scopes = Objects.requireNonNull(scopes, "scopes");
    this.recallTopK = recallTopK;
  }

  @Tool("Remembers a fact about the user for future conversations")
  public String remember(
      @ToolMemoryId Object memoryId,
      @P(name = "fact", value = "the fact to remember, one sentence") String fact) {
    return inScope(
        memoryId,
        "remember",
        scope -> {
          List<MemoryEvent> events =
              memory.add(AddRequest.builder(scope).user(fact).infer(false).build()).events();
          return events.isEmpty()
              ? "Nothing new to remember."
              : events.stream()
                  .map(e -> e.event() + " " + e.id() + ": " + e.memory())
                  .collect(Collectors.joining("\n"));
        });
  }

  @Tool("Recalls remembered facts about the user that match a query; each line is 'id: fact'")
  public String recall(
      @ToolMemoryId Object memoryId, @P(name = "query", value = "what to look for") String query) {
    return inScope(
        memoryId,
        "recall",
        scope -> {
          List<SearchHit> hits =
              memory.search(SearchRequest.builder(scope, query).topK(recallTopK).build()).hits();
          return hits.isEmpty()
              ? "Nothing remembered about that."
              : hits.stream()
                  .map(h -> h.memory().id() + ": " + h.memory().text())
                  .collect(Collectors.joining("\n"));
        });
  }

  @Tool("Forgets one remembered fact, by the id that recall gave")
  public String forget(
      @ToolMemoryId Object memoryId,
      @P(name = "factId", value = "the id of the fact to forget") String factId) {
    return inScope(
        memoryId,
        "forget",
        scope -> {
          Optional<MemoryItem> item = memory.get(factId);
          if (item.isEmpty() || !item.get().scope().equals(scope)) {
            return "No remembered fact has the id " + factId + ".";
          }
          memory.delete(factId);
          return "Forgotten: " + item.get().text();
        });
  }

  /**
   * The answer of {@code action} in the conversation's scope; with no scope, or when the memory
   * fails, an answer that says so ({@code Could not <verb>: ...}), since a tool answers the model
   * instead of throwing.
   */
  private String inScope(Object memoryId, String verb, Function<Scope, String> action) {
    Optional<Scope> scope = scopes.resolve(Optional.ofNullable(memoryId), Optional.empty());
    if (scope.isEmpty()) {
      return "No memory is available in this conversation.";
    }
    try {
      return action.apply(scope.get());
    } catch (EngramException | IllegalStateException e) {
      return "Could not " + verb + ": " + e.getMessage();
    }
  }
}

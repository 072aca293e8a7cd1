package dev.engram.spi;

import dev.engram.Engram;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.TokenCounter;
import dev.engram.ValidationException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Decides what an add with {@code infer=true} changes: the extraction and consolidation step of the
 * Mem0 pipeline. Implementations read (never write) through the context; the engine validates the
 * plan, embeds new texts and commits all of it in one transaction, or nothing if this method
 * throws.
 *
 * <p>Implementations are thread-safe. The engine runs at most one plan per scope at a time.
 */
public interface MemoryInference {

  /** The changes to make for the new messages; empty if nothing is worth remembering. */
  List<PlannedChange> plan(InferenceContext context);

  /**
   * The name the history rows of this inference's changes carry as their pipeline ({@link
   * dev.engram.HistoryEntry#pipeline()}), a well-formed {@link dev.engram.ChangePipelines} name;
   * the engine checks it when it is built. By default {@link dev.engram.ChangePipelines#INFER}.
   */
  default String pipelineName() {
    return dev.engram.ChangePipelines.INFER;
  }

  /**
   * What an inference sees.
   *
   * @param tenant the tenant
   * @param scope the scope of the add
   * @param messages the new messages (system messages included), oldest first
   * @param recentMessages the scope's message window before this add, oldest first
   * @param metadata the add's metadata
   * @param timestamp the add's conversation time, or null
   * @param memories read access to the scope's memories
   * @param summary the scope's rolling conversation summary ("" if none)
   * @param usage where language-model calls are recorded
   * @param passageTokens the engine's passage limit ({@link
   *     dev.engram.Engram.Builder#passageTokens}): a text kept as said that is longer is kept as
   *     its passages of at most this many tokens
   * @param tokenCounter how the engine counts those tokens ({@link
   *     dev.engram.Engram.Builder#tokenCounter})
   * @param contextEmbeddings whether each memory drawn from a message also keeps the embedding of
   *     its source context ({@link dev.engram.Engram.Builder#contextEmbeddings}): a memory is then
   *     found by its message's words as well as by its own, so what the message says around a fact
   *     need not be repeated in the fact's text
   */
  record InferenceContext(
      String tenant,
      Scope scope,
      List<Message> messages,
      List<Message> recentMessages,
      Map<String, Object> metadata,
      Instant timestamp,
      ScopeMemories memories,
      String summary,
      UsageMeter usage,
      int passageTokens,
      TokenCounter tokenCounter,
      boolean contextEmbeddings) {
    public InferenceContext {
      Objects.requireNonNull(tenant, "tenant");
      Objects.requireNonNull(scope, "scope");
      messages = List.copyOf(messages);
      recentMessages = List.copyOf(recentMessages);
      Objects.requireNonNull(memories, "memories");
      summary = summary == null ? "" : summary;
      Objects.requireNonNull(usage, "usage");
      if (passageTokens < 1) {
        throw new ValidationException("passageTokens", "must be at least 1, was " + passageTokens);
      }
      Objects.requireNonNull(tokenCounter, "tokenCounter");
    }

    /**
     * A context without a conversation summary, with a fresh usage meter, the engine's default
     * passage limit ({@link dev.engram.Engram.Builder#DEFAULT_PASSAGE_TOKENS} cl100k tokens) and
     * its default of no context embeddings.
     */
    public InferenceContext(
        String tenant,
        Scope scope,
        List<Message> messages,
        List<Message> recentMessages,
        Map<String, Object> metadata,
        Instant timestamp,
        ScopeMemories memories) {
      this(
          tenant,
          scope,
          messages,
          recentMessages,
          metadata,
          timestamp,
          memories,
          "",
          new UsageMeter(),
          Engram.Builder.DEFAULT_PASSAGE_TOKENS,
          TokenCounter.cl100k(),
          false);
    }
  }

  /** Read access to the memories of the scope being added to. */
  interface ScopeMemories {
    /** The {@code k} memories most similar to {@code text} (hybrid search), best first. */
    List<MemoryItem> similar(String text, int k);

    /**
     * Memories whose texts share words with {@code text}, for a check for near-verbatim repeats
     * (full-text matching alone: no embedding, so much cheaper than {@link #similar}): the {@code
     * k} that best match its words, best first, and possibly up to {@code k} of the scope's latest
     * memories that hold most of its words, after them ({@link
     * dev.engram.spi.SearchIndex#repeatCandidates}). By default {@link #similar}.
     */
    default List<MemoryItem> sharingWords(String text, int k) {
      return similar(text, k);
    }

    /** Memories of the scope with exactly this text. */
    List<MemoryItem> withText(String text);
  }

  /** One change an inference asks for. */
  sealed interface PlannedChange permits Add, Update, Delete, Noop {}

  /**
   * A new memory.
   *
   * @param text the fact
   * @param actorId the speaker it is about or came from, or null
   * @param role the source role, or null
   * @param eventTime when it happened or was said, or null
   * @param sourceIds ids of the source messages
   * @param metadata what the memory's metadata holds beside the add's: its keys win over the add's
   *     (a passage of a long message keeps its offsets here: {@link
   *     dev.engram.MemoryItem#PASSAGE_START}); empty for none
   */
  record Add(
      String text,
      String actorId,
      Role role,
      Instant eventTime,
      List<String> sourceIds,
      Map<String, Object> metadata)
      implements PlannedChange {
    public Add {
      Objects.requireNonNull(text, "text");
      sourceIds = sourceIds == null ? List.of() : List.copyOf(sourceIds);
      metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    /** A new memory with the add's metadata alone. */
    public Add(String text, String actorId, Role role, Instant eventTime, List<String> sourceIds) {
      this(text, actorId, role, eventTime, sourceIds, Map.of());
    }
  }

  /** New text for an existing memory of the scope. */
  record Update(String memoryId, String text) implements PlannedChange {
    public Update {
      Objects.requireNonNull(memoryId, "memoryId");
      Objects.requireNonNull(text, "text");
    }
  }

  /** Removes an existing memory of the scope (its history stays). */
  record Delete(String memoryId) implements PlannedChange {
    public Delete {
      Objects.requireNonNull(memoryId, "memoryId");
    }
  }

  /** An existing memory already says it. */
  record Noop(String memoryId) implements PlannedChange {
    public Noop {
      Objects.requireNonNull(memoryId, "memoryId");
    }
  }
}

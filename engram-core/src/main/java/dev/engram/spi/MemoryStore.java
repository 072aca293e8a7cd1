package dev.engram.spi;

import dev.engram.EntitySummary;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.StorageException;
import java.io.Closeable;
import java.time.LocalDate;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The system of record: memories with their embeddings, their history, and each scope's message
 * window. Every read and write names its tenant, and a store never returns a row of another tenant.
 *
 * <p><b>Durability.</b> {@link #apply} is atomic: when it returns, the whole change set (memory
 * rows, history rows, window messages) is committed and survives a crash of the process; when it
 * throws, nothing of it was written.
 *
 * <p><b>Change feed.</b> Every memory change gets a sequence number, increasing across the whole
 * store. A derived {@link SearchIndex} catches up by replaying {@link #changesSince}. {@link
 * #generation()} increases on every {@link #reset}, which does not keep a change feed: an index of
 * another generation is rebuilt.
 *
 * <p><b>Threading.</b> Implementations are thread-safe. Writes may be serialised internally.
 */
public interface MemoryStore extends Closeable {

  /** The embedding model recorded when the store was first written, if any. */
  Optional<EmbeddingSpec> embeddingSpec();

  /** Records the embedding model; called once, on a store that has none. */
  void recordEmbeddingSpec(EmbeddingSpec spec);

  /** Commits a change set atomically and returns the sequence number of its last memory change. */
  long apply(ChangeSet changes);

  /**
   * The store's graph outbox, if it has one (empty by default). A store with an outbox writes the
   * graph changes of a {@link ChangeSet#graphToOutbox()} change set as one outbox entry in the same
   * transaction as the set's memory changes, so that the engine can apply them to a separate {@link
   * GraphStore} after the commit and again after a crash. {@link #reset} also drops the tenant's
   * pending entries.
   */
  default Optional<GraphOutbox> graphOutbox() {
    return Optional.empty();
  }

  /**
   * Writes restored memories (an import of an export) in one transaction: for each, in order, its
   * history rows exactly as given (event, old and new text, actor, role, time), each with the next
   * sequence number, and then its memory row, if it has a current state, with the sequence number
   * of its last history row. Callers make sure no id already has a memory row or history in the
   * tenant; a memory row that exists fails the whole call.
   *
   * <p>The default throws {@link UnsupportedOperationException}: a store must implement it to
   * support imports.
   *
   * @return the sequence number of the last history row written, or {@link #lastSeq()} if the list
   *     is empty
   * @throws StorageException if the write fails (nothing is written)
   */
  default long restore(String tenant, List<RestoredMemory> memories) {
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " cannot restore imported memories");
  }

  /**
   * A page of memory ids for an export, in ascending order, strictly after {@code afterId} ({@code
   * ""} for the first page). With a scope: the ids of the scope's memories that exist (containment
   * rule, expired ones included). Without: every memory id that has history in the tenant, deleted
   * memories included.
   *
   * <p>The default throws {@link UnsupportedOperationException}: a store must implement it to
   * support exports.
   *
   * @param limit at most this many ids (positive)
   */
  default List<String> memoryIds(String tenant, Optional<Scope> scope, String afterId, int limit) {
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " cannot list memory ids for an export");
  }

  /** One memory of a tenant. */
  Optional<StoredMemory> get(String tenant, String id);

  /** The memories of a tenant with these ids that exist, in no particular order. */
  List<StoredMemory> getAll(String tenant, Collection<String> ids);

  /**
   * The metadata of the memories of a tenant with these ids that exist, by id: what {@link #getAll}
   * reads of them, for a search that needs no more of a memory than its metadata (the ranking steps
   * {@link dev.engram.Ranking#PASSAGES} and {@link dev.engram.Ranking#FACTS} read the counts of
   * every fused candidate, most of which never become hits). A store reads them without the texts,
   * contexts and embeddings, which cost a search far more; the default reads the whole memories.
   */
  default Map<String, Map<String, Object>> metadata(String tenant, Collection<String> ids) {
    Map<String, Map<String, Object>> out = new HashMap<>();
    for (StoredMemory m : getAll(tenant, ids)) {
      out.put(m.id(), m.item().metadata());
    }
    return out;
  }

  /** Memories of a scope whose text has this md5 hash. */
  List<MemoryItem> findByHash(String tenant, Scope scope, String hash);

  /**
   * A page of a scope's memories, newest first (created_at descending, then id), with the request's
   * filter applied inside the store; memories expired on {@code today} are left out unless the
   * request includes them.
   */
  Page<MemoryItem> list(String tenant, ListRequest request, LocalDate today);

  /**
   * Ids of up to {@code limit} memories of a tenant expired on {@code today} (expiration date on or
   * before it).
   */
  List<String> expiredIds(String tenant, LocalDate today, int limit);

  /** The history of one memory, oldest first; empty if the id is unknown. */
  List<HistoryEntry> history(String tenant, String memoryId);

  /** The last {@code limit} window messages of a scope, oldest first. */
  List<Message> recentMessages(String tenant, Scope scope, int limit);

  /** The rolling conversation summary of a scope, if one was saved. */
  Optional<String> summary(String tenant, Scope scope);

  /** Saves (replaces) the rolling conversation summary of a scope, in its own transaction. */
  void saveSummary(String tenant, Scope scope, String summary);

  /** The highest sequence number committed, or 0 for an empty store. */
  long lastSeq();

  /** Increases on every {@link #reset}. */
  long generation();

  /**
   * Visits the memories changed after {@code seq}, in sequence order, once per memory with its
   * current state ({@code null} state if it no longer exists).
   */
  void changesSince(long seq, Consumer<Change> visitor);

  /** Visits every stored memory of every tenant (to rebuild an index). */
  void forEach(Consumer<StoredMemory> visitor);

  /**
   * Deletes every memory, history row, window message and summary of a tenant, and increases the
   * generation.
   */
  void reset(String tenant);

  /** How many memories the store holds, in all tenants. */
  long count();

  /**
   * The user, agent and run ids of a tenant's memories with their counts, ordered by type then id.
   * The default scans every memory; stores override it with an indexed query.
   */
  default List<EntitySummary> entities(String tenant) {
    return EntityCounter.count(tenant, this::forEach);
  }

  /**
   * A memory changed at {@code seq}.
   *
   * @param seq the sequence number of its latest change
   * @param tenant its tenant
   * @param memoryId its id
   * @param current its current state, or null if it was deleted
   */
  record Change(long seq, String tenant, String memoryId, StoredMemory current) {}
}

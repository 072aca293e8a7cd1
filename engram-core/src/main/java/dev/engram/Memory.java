package dev.engram;

import dev.engram.graph.TimeView;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Long-term memory for agents: the public API of Engram.
 *
 * <p>A {@code Memory} belongs to one tenant; every call reads and writes only that tenant's data,
 * and every call that takes a {@link Scope} reads and writes only that scope. {@link #forTenant}
 * gives a view of another tenant that shares this instance's resources.
 *
 * <p><b>Threading.</b> Thread-safe. Calls block: {@code add} may embed text and call a language
 * model, {@code search} embeds the query. The {@code *Async} variants run on the engine's executor.
 *
 * <p><b>Durability.</b> When {@code add}, {@code update}, {@code delete} or {@code deleteAll}
 * returns, its changes and their history rows are committed together and are visible to searches;
 * when it throws, nothing was written.
 */
public interface Memory extends AutoCloseable {

  /** The tenant this view reads and writes. */
  String tenant();

  /**
   * A view of another tenant, sharing this instance's storage and models. Closing a view does
   * nothing.
   */
  Memory forTenant(String tenantId);

  /** Remembers messages; returns one event per memory touched. */
  AddResult add(AddRequest request);

  /** Remembers one user message with default options. */
  default AddResult add(Scope scope, String userMessage) {
    return add(AddRequest.builder(scope).user(userMessage).build());
  }

  /**
   * Remembers one user message verbatim, without inference: the text becomes one memory as written
   * (for facts an application or a model has already phrased).
   */
  default AddResult remember(Scope scope, String fact) {
    return add(AddRequest.builder(scope).user(fact).infer(false).build());
  }

  /**
   * Checks an add request as {@link #add} would, without running it: the text of every message
   * against the limit ({@link Engram.Builder#maxTextLength}, a {@link TextTooLongException}), the
   * number of messages and the metadata keys. Throws the {@link ValidationException} that {@code
   * add} would throw, naming the field; returns normally if {@code add} would accept the request. A
   * server calls it before it queues an add for the background, an import before it writes
   * anything. The default accepts every request and leaves the checks to {@code add}, for a memory
   * that does not know its limits here (a remote one: its server checks).
   */
  default void check(AddRequest request) {}

  /**
   * Applies several adds in one transaction (for imports): all of them are committed, or none.
   * Returns one result per request, in order.
   */
  List<AddResult> addBatch(List<AddRequest> requests);

  /**
   * Hybrid search inside a scope. With the graph memory on, the result also carries the relations
   * found for the query that hold now ({@link TimeView#CURRENT}).
   */
  SearchResult search(SearchRequest request);

  /**
   * Hybrid search inside a scope with the default options ({@value SearchRequest#DEFAULT_TOP_K}
   * results).
   */
  default SearchResult search(Scope scope, String query) {
    return search(SearchRequest.builder(scope, query).build());
  }

  /** Hybrid search inside a scope for at most {@code topK} results. */
  default SearchResult search(Scope scope, String query, int topK) {
    return search(SearchRequest.builder(scope, query).topK(topK).build());
  }

  /**
   * Hybrid search inside a scope among the memories that match {@code filter} (built with {@link
   * dev.engram.filter.Filters} or parsed from mem0's JSON form with {@link
   * dev.engram.filter.Mem0Filters}).
   */
  default SearchResult search(Scope scope, String query, dev.engram.filter.Filter filter) {
    return search(SearchRequest.builder(scope, query).filter(filter).build());
  }

  /**
   * Hybrid search whose graph relations are taken under {@code relations}: {@link TimeView#asOf}
   * for what held at an instant, {@link TimeView#ALL} to include invalidated relations.
   */
  SearchResult search(SearchRequest request, TimeView relations);

  /**
   * The relations of the scope's entities with this name (compared normalised: case, punctuation
   * and spacing do not matter), ordered by id; empty if there is no such entity or no graph store.
   */
  List<GraphRelation> entityRelations(Scope scope, String entityName, TimeView view);

  /**
   * The relations whose provenance lists this memory (learned from it), visible under {@code view},
   * ordered by id; empty for an unknown id or without a graph store.
   */
  List<GraphRelation> memoryRelations(String memoryId, TimeView view);

  /**
   * The relations within {@code hops} (1 to 3) of the scope's entities with this name, nearest
   * first.
   */
  List<GraphRelation> graphAround(Scope scope, String entityName, int hops, TimeView view);

  /**
   * Deletes the scope's entities with this name and every relation touching them; returns how many
   * entities.
   *
   * @throws IllegalStateException if the storage has no graph store
   */
  int deleteEntity(Scope scope, String entityName);

  /** One memory of this tenant, or empty. */
  Optional<MemoryItem> get(String memoryId);

  /** A page of a scope's memories, newest first. */
  Page<MemoryItem> list(ListRequest request);

  /**
   * The first page ({@value ListRequest#DEFAULT_LIMIT} memories) of a scope's memories, newest
   * first.
   */
  default Page<MemoryItem> list(Scope scope) {
    return list(ListRequest.of(scope));
  }

  /** The first page of a scope's memories that match {@code filter}, newest first. */
  default Page<MemoryItem> list(Scope scope, dev.engram.filter.Filter filter) {
    return list(ListRequest.of(scope).withFilter(filter));
  }

  /** Changes a memory's text, metadata and/or expiration; returns the new state. */
  MemoryItem update(String memoryId, MemoryUpdate update);

  /** Changes a memory's text; returns the new state. */
  default MemoryItem update(String memoryId, String newText) {
    return update(memoryId, MemoryUpdate.text(newText));
  }

  /**
   * Deletes a memory; its history stays.
   *
   * @throws MemoryNotFoundException if there is no such memory in this tenant
   */
  void delete(String memoryId);

  /** Deletes every memory of a scope, and its graph; returns how many memories. */
  int deleteAll(Scope scope);

  /**
   * The user, agent and run ids of this tenant that own memories, with their counts, ordered by
   * type then id (mem0's entities).
   */
  List<EntitySummary> entities();

  /** The audit trail of one memory, oldest first; empty for an unknown id. */
  List<HistoryEntry> history(String memoryId);

  /**
   * How the stores stand: the record's and the index's sequence numbers (shared by every tenant
   * view).
   */
  MemoryStatus status();

  /** Deletes all of this tenant's memories, history, message windows and graph. */
  void reset();

  /** Deletes this tenant's memories that are expired today; returns how many. */
  int purgeExpired();

  /**
   * This tenant's memories, or one scope's, each with its full history, in ascending id order (see
   * {@link ExportRequest} for which memories a request covers). The store is read one page at a
   * time as the stream is consumed, so a large tenant is never held in memory; the stream is lazy
   * and needs no closing. It is not a snapshot: a memory changed while the stream runs appears in
   * the state of the moment its page was read, and each id appears at most once.
   */
  Stream<MemoryRecord> exportRecords(ExportRequest request);

  /**
   * Writes exported records into this tenant in one transaction: each record's memory (if it was
   * not deleted) with its id, text, hash, scope, metadata, times, expiration and provenance, and
   * its history rows as they were (events, texts, actors, roles, times; new sequence numbers). The
   * texts are embedded again, in one batch, with this memory's embedder; the graph memory is not
   * written. A record whose id the tenant already has (as a memory or as history of a deleted one)
   * is skipped and reported in {@link ImportResult#skippedIds()}, so running an interrupted import
   * again resumes it.
   *
   * @throws ValidationException if a record is invalid (its text blank or too long, its hash not
   *     the md5 of its text, identity keys in its metadata, an id twice in the list); the message
   *     names the record as {@code records[i]}, and nothing of the list was written
   */
  ImportResult importRecords(List<MemoryRecord> records);

  CompletableFuture<AddResult> addAsync(AddRequest request);

  CompletableFuture<SearchResult> searchAsync(SearchRequest request);

  /** Releases storage, models and threads (for the root instance; views do nothing). */
  @Override
  void close();
}

package dev.engram.engine;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.ChangePipelines;
import dev.engram.Engram;
import dev.engram.EntitySummary;
import dev.engram.ExportRequest;
import dev.engram.GraphRelation;
import dev.engram.HistoryEntry;
import dev.engram.ImportResult;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.MemoryRecord;
import dev.engram.MemoryStatus;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.Tenants;
import dev.engram.ValidationException;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.TimeView;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.UsageMeter;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;

/**
 * The {@link Memory} implementation: one tenant's view of a shared {@link Engine}. Open with {@link
 * Engram#builder()}.
 */
public final class EngramMemory implements Memory {
  private static final int DELETE_CHUNK = 500;

  private final Engine engine;
  private final String tenant;
  private final boolean root;
  private final RankingSteps rankingSteps;
  private final HybridSearch search;
  private final AddPath addPath;
  private final GraphSearch graphSearch;
  private final MemoryTransfer transfer;

  private EngramMemory(Engine engine, String tenant, boolean root, RankingSteps rankingSteps) {
    this.engine = engine;
    this.tenant = tenant;
    this.root = root;
    this.rankingSteps = rankingSteps;
    this.search = new HybridSearch(engine, rankingSteps, engine.config.queryAnalyzer());
    this.addPath = new AddPath(engine, search);
    this.graphSearch = engine.graph == null ? null : new GraphSearch(engine);
    this.transfer = new MemoryTransfer(engine);
  }

  /** Opens the engine described by {@code config}; see {@link Engram.Builder#build()}. */
  public static Memory open(Engram.Config config) {
    return new EngramMemory(Engine.open(config), config.tenant(), true, RankingSteps.STANDARD);
  }

  /**
   * This memory's view of the same engine with the ranking steps of {@code steps} (a registry with
   * a step of one's own, {@link RankingSteps#with}); closing the view leaves the engine open.
   */
  EngramMemory withRankingSteps(RankingSteps steps) {
    return new EngramMemory(engine, tenant, false, steps);
  }

  @Override
  public String tenant() {
    return tenant;
  }

  @Override
  public Memory forTenant(String tenantId) {
    return new EngramMemory(engine, Tenants.check(tenantId), false, rankingSteps);
  }

  @Override
  public AddResult add(AddRequest request) {
    Objects.requireNonNull(request, "request");
    engine.ensureOpen();
    return addPath.add(tenant, request);
  }

  @Override
  public void check(AddRequest request) {
    Objects.requireNonNull(request, "request");
    addPath.check(request);
  }

  @Override
  public List<AddResult> addBatch(List<AddRequest> requests) {
    Objects.requireNonNull(requests, "requests");
    engine.ensureOpen();
    if (requests.isEmpty()) {
      return List.of();
    }
    return addPath.addBatch(tenant, requests);
  }

  @Override
  public SearchResult search(SearchRequest request) {
    return search(request, TimeView.CURRENT);
  }

  @Override
  public SearchResult search(SearchRequest request, TimeView relations) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(relations, "relations");
    if (!engine.graphEnabled()) {
      return search.search(tenant, request);
    }
    HybridSearch.Searched searched = search.searched(tenant, request);
    if (searched.emptied()) {
      return searched
          .result(); // a ranking step found that the search returns nothing: no relations either
    }
    SearchResult memories = searched.result();
    // with a token budget (and so no top-k of its own) the relations keep the default top-k and
    // share the budget
    int relationsK =
        request.maxTokens().isPresent()
            ? Math.min(request.topK(), SearchRequest.DEFAULT_TOP_K)
            : request.topK();
    List<GraphRelation> found =
        graphSearch.search(
            tenant,
            request.scope(),
            request.query(),
            searched.pass().vector(),
            relationsK,
            request.threshold(),
            relations.at(engine.config.clock().instant()),
            searched.pass());
    return request.maxTokens().isPresent()
        ? GraphContextBudget.fit(
            memories.hits(), found, request.maxTokens().getAsInt(), engine.config.tokenCounter())
        : new SearchResult(memories.hits(), found);
  }

  @Override
  public List<GraphRelation> entityRelations(Scope scope, String entityName, TimeView view) {
    return graphAround(scope, entityName, 1, view);
  }

  @Override
  public List<GraphRelation> graphAround(Scope scope, String entityName, int hops, TimeView view) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entityName, "entityName");
    Objects.requireNonNull(view, "view");
    if (hops < 1 || hops > 3) {
      throw new ValidationException("hops", "must be between 1 and 3, got " + hops);
    }
    engine.ensureOpen();
    if (graphSearch == null) {
      return List.of();
    }
    List<String> ids =
        graphSearch.named(tenant, scope, entityName).stream().map(Entity::id).toList();
    if (ids.isEmpty()) {
      return List.of();
    }
    var relations =
        graphSearch.around(tenant, scope, ids, hops, view.at(engine.config.clock().instant()));
    if (hops == 1) {
      relations.sort(java.util.Comparator.comparing(dev.engram.graph.Relation::id));
    }
    return graphSearch.render(tenant, relations, r -> 1.0);
  }

  @Override
  public List<GraphRelation> memoryRelations(String memoryId, TimeView view) {
    Objects.requireNonNull(view, "view");
    String id = RequestChecks.checkId(memoryId);
    engine.ensureOpen();
    if (graphSearch == null) {
      return List.of();
    }
    java.time.Instant now = engine.config.clock().instant();
    TimeView at = view.at(now);
    List<dev.engram.graph.Relation> relations =
        new java.util.ArrayList<>(
            engine.graph.relationsFromMemories(tenant, List.of(id)).stream()
                .filter(at::admits)
                .toList());
    relations.sort(java.util.Comparator.comparing(dev.engram.graph.Relation::id));
    return graphSearch.render(tenant, relations, r -> 1.0);
  }

  @Override
  public int deleteEntity(Scope scope, String entityName) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entityName, "entityName");
    engine.ensureOpen();
    if (graphSearch == null) {
      throw new IllegalStateException("the storage has no graph store");
    }
    java.util.Set<String> ids = new java.util.HashSet<>();
    graphSearch.named(tenant, scope, entityName).forEach(e -> ids.add(e.id()));
    if (!ids.isEmpty()) {
      engine.commit(new ChangeSet(tenant, List.of(), List.of(), GraphChanges.deleting(ids)));
    }
    return ids.size();
  }

  @Override
  public Optional<MemoryItem> get(String memoryId) {
    engine.ensureOpen();
    return engine.store.get(tenant, RequestChecks.checkId(memoryId)).map(StoredMemory::item);
  }

  @Override
  public Page<MemoryItem> list(ListRequest request) {
    Objects.requireNonNull(request, "request");
    engine.ensureOpen();
    return engine.store.list(tenant, request, engine.today());
  }

  /**
   * {@inheritDoc}
   *
   * <p>With a graph store, a new text also changes the graph, in the same change set as the memory
   * (one transaction in the embedded storage): if graph memory is on, the new text goes through the
   * graph writer as one new memory of the memory's scope (one user message, timestamp now); then
   * every still-valid relation whose only supporting memory is this one, and that the new text does
   * not state again, is invalidated ({@code invalidAt} = {@code expiredAt} = now; see {@link
   * GraphRetirement}). A failure of the graph extraction fails the update before anything is
   * written. A metadata or expiration update leaves the graph alone.
   */
  @Override
  public MemoryItem update(String memoryId, MemoryUpdate update) {
    Objects.requireNonNull(update, "update");
    String id = RequestChecks.checkId(memoryId);
    if (update.newText().isEmpty()
        && update.newMetadata().isEmpty()
        && update.newExpiration().isEmpty()) {
      throw new ValidationException(
          "update", "set at least one of text, metadata or expiration_date");
    }
    String text =
        update.newText().isPresent()
            ? RequestChecks.checkText("text", update.newText().get(), engine.config.maxTextLength())
            : null;
    update.newMetadata().ifPresent(m -> RequestChecks.checkMetadata(m.keySet()));
    StoredMemory old =
        engine.store.get(tenant, id).orElseThrow(() -> new MemoryNotFoundException(id));
    MemoryItem o = old.item();
    Map<String, Object> metadata = update.newMetadata().orElse(o.metadata());
    LocalDate expiration =
        update.newExpiration().isPresent()
            ? update.newExpiration().get().orElse(null)
            : o.expirationDate();
    String newText = text != null ? text : o.text();
    boolean newContent = !newText.equals(o.text());
    ReentrantLock lock = newContent && engine.graph != null ? lockScopeOf(o) : null;
    try {
      Instant now = engine.config.clock().instant();
      MemoryItem item = o.withContent(newText, metadata, expiration, now);
      float[] vector =
          !newContent
              ? old.embeddingView()
              : Vectors.embedDocuments(
                      engine.config.embedder(), List.of(EmbeddingTexts.of(item)), "memory text")
                  .get(0);
      GraphChanges graph = lock == null ? GraphChanges.NONE : supersededGraph(item, now);
      engine.commit(
          new ChangeSet(
              tenant,
              List.of(
                  MemoryChange.update(
                      newContent ? new StoredMemory(tenant, item, vector) : old.withItem(item),
                      o.text(),
                      ChangePipelines.UPDATE)),
              List.of(),
              graph));
      return item;
    } finally {
      if (lock != null) {
        lock.unlock();
      }
    }
  }

  /**
   * The graph changes of a memory's new text: the writer's for the text, then the retirement of the
   * old one.
   */
  private GraphChanges supersededGraph(MemoryItem item, Instant now) {
    GraphChanges written = GraphChanges.NONE;
    if (engine.graphEnabled()) {
      GraphWriter.Pending pending = new GraphWriter.Pending();
      new GraphWriter(engine, engine.graph)
          .write(
              tenant,
              new GraphExtractor.Input(
                  item.scope(),
                  List.of(Message.user(item.text())),
                  now,
                  List.of(
                      new GraphExtractor.NewMemory(
                          item.id(), item.text(), item.actorId(), item.sourceIds())),
                  new UsageMeter()),
              pending);
      written = pending.changes();
    }
    return new GraphRetirement(engine).supersede(tenant, item.id(), written);
  }

  /**
   * {@inheritDoc}
   *
   * <p>With a graph store, the memory is also forgotten by the graph in the same change set (one
   * transaction in the embedded storage): its id leaves the provenance of every relation; relations
   * left without a supporting memory are deleted, with the endpoints they leave without any
   * relation (see {@link GraphRetirement}).
   */
  @Override
  public void delete(String memoryId) {
    String id = RequestChecks.checkId(memoryId);
    StoredMemory old =
        engine.store.get(tenant, id).orElseThrow(() -> new MemoryNotFoundException(id));
    if (engine.graph == null) {
      engine.commit(
          ChangeSet.of(
              tenant,
              List.of(
                  MemoryChange.delete(
                      old, ChangePipelines.DELETE, engine.config.clock().instant()))));
      return;
    }
    ReentrantLock lock = lockScopeOf(old.item());
    try {
      GraphChanges graph = new GraphRetirement(engine).forget(tenant, List.of(id));
      engine.commit(
          new ChangeSet(
              tenant,
              List.of(
                  MemoryChange.delete(
                      old, ChangePipelines.DELETE, engine.config.clock().instant())),
              List.of(),
              graph));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Locks the scope lock of the memory's own scope, which adds to that scope hold while they write
   * the graph, so that no add rewrites the memory's relations between their reading here and the
   * commit.
   */
  private ReentrantLock lockScopeOf(MemoryItem m) {
    ReentrantLock lock = engine.scopeLocks.lockFor(tenant, m.scope());
    lock.lock();
    return lock;
  }

  /** Deletes in chunks of {@value #DELETE_CHUNK}, each chunk one transaction. */
  @Override
  public int deleteAll(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    engine.ensureOpen();
    int deleted = 0;
    while (true) {
      Page<MemoryItem> page =
          engine.store.list(
              tenant,
              ListRequest.of(scope).withPage(0, DELETE_CHUNK).withIncludeExpired(true),
              engine.today());
      if (page.items().isEmpty()) {
        if (engine.graph != null) {
          engine.graph.deleteScope(tenant, scope);
        }
        return deleted;
      }
      deleted +=
          deleteIds(
              page.items().stream().map(MemoryItem::id).toList(),
              false,
              ChangePipelines.DELETE_ALL);
    }
  }

  /**
   * Deletes these memories; if {@code forgetGraph} and there is a graph store, the graph forgets
   * them too (one change set per scope, under that scope's lock), else in one change set. Their
   * history rows name {@code pipeline}.
   */
  private int deleteIds(List<String> ids, boolean forgetGraph, String pipeline) {
    List<StoredMemory> found = engine.store.getAll(tenant, ids);
    if (found.isEmpty()) {
      throw new IllegalStateException(
          "listed memories vanished during a delete; concurrent deletes?");
    }
    Instant now = engine.config.clock().instant();
    if (!forgetGraph || engine.graph == null) {
      engine.commit(
          ChangeSet.of(
              tenant, found.stream().map(m -> MemoryChange.delete(m, pipeline, now)).toList()));
      return found.size();
    }
    Map<Scope, List<StoredMemory>> byScope = new java.util.LinkedHashMap<>();
    for (StoredMemory m : found) {
      byScope.computeIfAbsent(m.item().scope(), s -> new ArrayList<>()).add(m);
    }
    for (List<StoredMemory> group : byScope.values()) {
      ReentrantLock lock = lockScopeOf(group.get(0).item());
      try {
        GraphChanges graph =
            new GraphRetirement(engine)
                .forget(tenant, group.stream().map(StoredMemory::id).toList());
        engine.commit(
            new ChangeSet(
                tenant,
                group.stream().map(m -> MemoryChange.delete(m, pipeline, now)).toList(),
                List.of(),
                graph));
      } finally {
        lock.unlock();
      }
    }
    return found.size();
  }

  @Override
  public MemoryStatus status() {
    engine.ensureOpen();
    return engine.status();
  }

  @Override
  public List<EntitySummary> entities() {
    engine.ensureOpen();
    return engine.store.entities(tenant);
  }

  @Override
  public List<HistoryEntry> history(String memoryId) {
    engine.ensureOpen();
    return engine.store.history(tenant, RequestChecks.checkId(memoryId));
  }

  @Override
  public void reset() {
    engine.reset(tenant);
  }

  @Override
  public int purgeExpired() {
    engine.ensureOpen();
    int deleted = 0;
    while (true) {
      List<String> ids = engine.store.expiredIds(tenant, engine.today(), DELETE_CHUNK);
      if (ids.isEmpty()) {
        return deleted;
      }
      deleted += deleteIds(ids, true, ChangePipelines.EXPIRY);
    }
  }

  @Override
  public Stream<MemoryRecord> exportRecords(ExportRequest request) {
    return transfer.export(tenant, request);
  }

  @Override
  public ImportResult importRecords(List<MemoryRecord> records) {
    return transfer.importRecords(tenant, records);
  }

  @Override
  public CompletableFuture<AddResult> addAsync(AddRequest request) {
    engine.ensureOpen();
    return CompletableFuture.supplyAsync(() -> add(request), engine.asyncExecutor);
  }

  @Override
  public CompletableFuture<SearchResult> searchAsync(SearchRequest request) {
    engine.ensureOpen();
    return CompletableFuture.supplyAsync(() -> search(request), engine.asyncExecutor);
  }

  @Override
  public void close() {
    if (root) {
      engine.close();
    }
  }
}

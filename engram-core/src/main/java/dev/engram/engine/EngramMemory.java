package dev.engram.engine;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.Engram;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.MemoryUpdate;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.Tenants;
import dev.engram.ValidationException;
import dev.engram.GraphRelation;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.TimeView;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link Memory} implementation: one tenant's view of a shared {@link Engine}. Open with
 * {@link Engram#builder()}.
 */
public final class EngramMemory implements Memory {
  private static final int DELETE_CHUNK = 500;

  private final Engine engine;
  private final String tenant;
  private final boolean root;
  private final HybridSearch search;
  private final AddPath addPath;
  private final GraphSearch graphSearch;

  private EngramMemory(Engine engine, String tenant, boolean root) {
    this.engine = engine;
    this.tenant = tenant;
    this.root = root;
    this.search = new HybridSearch(engine);
    this.addPath = new AddPath(engine, search);
    this.graphSearch = engine.graph == null ? null : new GraphSearch(engine);
  }

  /** Opens the engine described by {@code config}; see {@link Engram.Builder#build()}. */
  public static Memory open(Engram.Config config) {
    return new EngramMemory(Engine.open(config), config.tenant(), true);
  }

  @Override
  public String tenant() {
    return tenant;
  }

  @Override
  public Memory forTenant(String tenantId) {
    return new EngramMemory(engine, Tenants.check(tenantId), false);
  }

  @Override
  public AddResult add(AddRequest request) {
    Objects.requireNonNull(request, "request");
    engine.ensureOpen();
    return addPath.add(tenant, request);
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
    SearchResult memories = search.search(tenant, request);
    if (!engine.graphEnabled()) {
      return memories;
    }
    float[] vector = Vectors.normalized(engine.config.embedder().embedQuery(request.query()),
        engine.config.embedder().dimension(), "the query");
    return new SearchResult(memories.hits(), graphSearch.search(tenant, request.scope(), request.query(), vector,
        request.topK(), relations.at(engine.config.clock().instant())));
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
    List<String> ids = graphSearch.named(tenant, scope, entityName).stream().map(Entity::id).toList();
    if (ids.isEmpty()) {
      return List.of();
    }
    var relations = graphSearch.around(tenant, scope, ids, hops, view.at(engine.config.clock().instant()));
    if (hops == 1) {
      relations.sort(java.util.Comparator.comparing(dev.engram.graph.Relation::id));
    }
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

  @Override
  public MemoryItem update(String memoryId, MemoryUpdate update) {
    Objects.requireNonNull(update, "update");
    String id = RequestChecks.checkId(memoryId);
    if (update.newText().isEmpty() && update.newMetadata().isEmpty() && update.newExpiration().isEmpty()) {
      throw new ValidationException("update", "set at least one of text, metadata or expiration_date");
    }
    String text = update.newText().isPresent()
        ? RequestChecks.checkText("text", update.newText().get(), engine.config.maxTextLength()) : null;
    update.newMetadata().ifPresent(m -> RequestChecks.checkMetadata(m.keySet()));
    StoredMemory old = engine.store.get(tenant, id).orElseThrow(() -> new MemoryNotFoundException(id));
    MemoryItem o = old.item();
    Map<String, Object> metadata = update.newMetadata().orElse(o.metadata());
    LocalDate expiration = update.newExpiration().isPresent() ? update.newExpiration().get().orElse(null)
        : o.expirationDate();
    String newText = text != null ? text : o.text();
    Instant now = engine.config.clock().instant();
    MemoryItem item = o.withContent(newText, metadata, expiration, now);
    float[] vector = newText.equals(o.text()) ? old.embeddingView()
        : Vectors.normalized(engine.config.embedder().embedDocuments(List.of(EmbeddingTexts.of(item))).get(0),
            engine.config.embedder().dimension(), "memory text");
    engine.commit(ChangeSet.of(tenant, List.of(MemoryChange.update(new StoredMemory(tenant, item, vector),
        o.text()))));
    return item;
  }

  @Override
  public void delete(String memoryId) {
    String id = RequestChecks.checkId(memoryId);
    StoredMemory old = engine.store.get(tenant, id).orElseThrow(() -> new MemoryNotFoundException(id));
    engine.commit(ChangeSet.of(tenant, List.of(MemoryChange.delete(old))));
  }

  /** Deletes in chunks of {@value #DELETE_CHUNK}, each chunk one transaction. */
  @Override
  public int deleteAll(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    engine.ensureOpen();
    int deleted = 0;
    while (true) {
      Page<MemoryItem> page = engine.store.list(tenant,
          ListRequest.of(scope).withPage(0, DELETE_CHUNK).withIncludeExpired(true), engine.today());
      if (page.items().isEmpty()) {
        if (engine.graph != null) {
          engine.graph.deleteScope(tenant, scope);
        }
        return deleted;
      }
      deleted += deleteIds(page.items().stream().map(MemoryItem::id).toList());
    }
  }

  private int deleteIds(List<String> ids) {
    List<MemoryChange> changes = new ArrayList<>(ids.size());
    for (StoredMemory m : engine.store.getAll(tenant, ids)) {
      changes.add(MemoryChange.delete(m));
    }
    if (changes.isEmpty()) {
      throw new IllegalStateException("listed memories vanished during a delete; concurrent deletes?");
    }
    engine.commit(ChangeSet.of(tenant, changes));
    return changes.size();
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
      deleted += deleteIds(ids);
    }
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

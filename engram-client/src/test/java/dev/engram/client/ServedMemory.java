package dev.engram.client;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.EntitySummary;
import dev.engram.ExportRequest;
import dev.engram.GraphRelation;
import dev.engram.HistoryEntry;
import dev.engram.ImportResult;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryRecord;
import dev.engram.MemoryStatus;
import dev.engram.MemoryUpdate;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.Tenants;
import dev.engram.graph.TimeView;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A real {@code engram serve} (Jetty on 127.0.0.1, a free port) over an embedded memory, seen only
 * through a {@link RemoteMemory} with an admin key of the default tenant. {@link #forTenant}
 * answers with a {@link RemoteMemory} holding a key of that tenant (created on the server), which
 * is how a remote application reaches another tenant. Closing it closes the clients, the server and
 * the embedded memory.
 */
final class ServedMemory implements Memory {
  final Memory embedded;
  final EngramServer server;
  final RemoteMemory remote;
  private final ServerDatabase db;
  private final SqliteApiKeyStore keys;
  private final SqliteAddEventStore events;
  private final Map<String, RemoteMemory> tenants = new ConcurrentHashMap<>();
  private boolean closed;

  ServedMemory(Memory embedded, Path dir, Clock clock) {
    this.embedded = embedded;
    this.db = ServerDatabase.open(dir);
    this.keys = new SqliteApiKeyStore(db, Clock.systemUTC(), false);
    this.events = new SqliteAddEventStore(db, false);
    // The server reads the contract's clock, which may tick a second per reading (TickingClock):
    // with the default
    // 60-second lease, 60 readings by other requests while one add runs would end its lease and
    // have it run twice.
    this.server =
        EngramServer.builder(embedded)
            .settings(ServerSettings.builder().port(0).eventLease(Duration.ofDays(3650)).build())
            .keys(keys)
            .events(events)
            .clock(clock)
            .build()
            .start();
    this.remote = client(Tenants.DEFAULT);
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  /** A new client with a new key of this tenant and role. */
  RemoteMemory client(String tenant, KeyRole role) {
    return EngramClient.builder()
        .baseUrl(baseUrl())
        .apiKey(keys.create(tenant, role, "test").secret())
        .build();
  }

  private RemoteMemory client(String tenant) {
    return client(tenant, KeyRole.ADMIN);
  }

  @Override
  public String tenant() {
    return remote.tenant();
  }

  @Override
  public Memory forTenant(String tenantId) {
    String t = Tenants.check(tenantId);
    return t.equals(Tenants.DEFAULT) ? this : tenants.computeIfAbsent(t, this::client);
  }

  @Override
  public AddResult add(AddRequest request) {
    return remote.add(request);
  }

  @Override
  public List<AddResult> addBatch(List<AddRequest> requests) {
    return remote.addBatch(requests);
  }

  @Override
  public SearchResult search(SearchRequest request) {
    return remote.search(request);
  }

  @Override
  public SearchResult search(SearchRequest request, TimeView relations) {
    return remote.search(request, relations);
  }

  @Override
  public List<GraphRelation> entityRelations(Scope scope, String entityName, TimeView view) {
    return remote.entityRelations(scope, entityName, view);
  }

  @Override
  public List<GraphRelation> memoryRelations(String memoryId, TimeView view) {
    return remote.memoryRelations(memoryId, view);
  }

  @Override
  public List<GraphRelation> graphAround(Scope scope, String entityName, int hops, TimeView view) {
    return remote.graphAround(scope, entityName, hops, view);
  }

  @Override
  public int deleteEntity(Scope scope, String entityName) {
    return remote.deleteEntity(scope, entityName);
  }

  @Override
  public Optional<MemoryItem> get(String memoryId) {
    return remote.get(memoryId);
  }

  @Override
  public Page<MemoryItem> list(ListRequest request) {
    return remote.list(request);
  }

  @Override
  public MemoryItem update(String memoryId, MemoryUpdate update) {
    return remote.update(memoryId, update);
  }

  @Override
  public void delete(String memoryId) {
    remote.delete(memoryId);
  }

  @Override
  public int deleteAll(Scope scope) {
    return remote.deleteAll(scope);
  }

  @Override
  public List<EntitySummary> entities() {
    return remote.entities();
  }

  @Override
  public List<HistoryEntry> history(String memoryId) {
    return remote.history(memoryId);
  }

  @Override
  public MemoryStatus status() {
    return remote.status();
  }

  @Override
  public void reset() {
    remote.reset();
  }

  @Override
  public int purgeExpired() {
    return remote.purgeExpired();
  }

  @Override
  public Stream<MemoryRecord> exportRecords(ExportRequest request) {
    return remote.exportRecords(request);
  }

  @Override
  public ImportResult importRecords(List<MemoryRecord> records) {
    return remote.importRecords(records);
  }

  @Override
  public CompletableFuture<AddResult> addAsync(AddRequest request) {
    return remote.addAsync(request);
  }

  @Override
  public CompletableFuture<SearchResult> searchAsync(SearchRequest request) {
    return remote.searchAsync(request);
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    remote.close();
    tenants.values().forEach(RemoteMemory::close);
    server.close();
    events.close();
    keys.close();
    db.close();
    embedded.close();
  }
}

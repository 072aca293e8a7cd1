package dev.engram.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.engram.StorageException;
import dev.engram.Tenants;
import dev.engram.ValidationException;
import dev.engram.graph.TimeView;
import dev.engram.json.MemoryJson;
import dev.engram.json.MemoryRecordJson;
import dev.engram.json.MemoryRecordReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The {@link Memory} API over {@code engram serve}'s REST API (open one with {@link
 * EngramClient#builder()}). Every call is one or a few HTTP requests; failures come back as the
 * exceptions an embedded memory throws ({@code ValidationException} naming the field, {@code
 * MemoryNotFoundException}, {@code LanguageModelException}, {@code StorageException}, also when the
 * server cannot be reached).
 *
 * <p>Routes: adds are synchronous ({@code POST /v1/memories/}, which answers the add's events);
 * {@link #addBatch} is {@code POST /v1/memories/batch/} (one transaction on the server); search
 * {@code POST /v3/memories/search/} with the scope and filter in mem0's JSON form and {@code as_of}
 * for the graph; {@link #list} {@code POST /v3/memories/} with Engram's {@code offset}/{@code
 * limit}; get, update, delete and history {@code /v1/memories/{id}/...}; {@link #deleteAll} {@code
 * DELETE /v1/memories/}; {@link #entities} {@code GET /v1/entities/} pages; the graph {@code
 * /v1/graph/...}; {@link #reset} {@code POST /reset}; {@link #purgeExpired} {@code POST
 * /v1/memories/purge-expired/}; {@link #status} {@code GET /readyz}.
 *
 * <p>{@link #exportRecords} is {@code POST /v1/engram/export/} (JSON Lines) and {@link
 * #importRecords} {@code POST /v1/engram/import/}; both need an admin key.
 *
 * <p><b>Tenancy.</b> The tenant is the API key's and cannot be chosen by the client: {@link
 * #forTenant} returns this memory for its own tenant and throws {@link
 * UnsupportedOperationException} for any other (use a key of that tenant). <b>Threading:</b>
 * thread-safe; the {@code *Async} calls run on the client's own threads.
 */
public final class RemoteMemory implements Memory {
  /** Largest page the server answers; longer listings are read in pages of this size. */
  static final int SERVER_PAGE = 1000;

  private final HttpTransport http;
  private final ExecutorService async;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile String tenant;

  RemoteMemory(HttpTransport http, int asyncThreads) {
    this.http = http;
    AtomicInteger n = new AtomicInteger();
    this.async =
        Executors.newFixedThreadPool(
            asyncThreads,
            r -> {
              Thread t = new Thread(r, "engram-client-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /** The key's tenant, asked of the server once ({@code GET /v1/ping/}). */
  @Override
  public String tenant() {
    open();
    String t = tenant;
    if (t == null) {
      t = http.ok("GET", "v1/ping/", null, Optional.empty()).path("org_id").asText();
      tenant = t;
    }
    return t;
  }

  /**
   * This memory if {@code tenantId} is the key's tenant.
   *
   * @throws UnsupportedOperationException for another tenant: the server takes the tenant from the
   *     API key
   */
  @Override
  public Memory forTenant(String tenantId) {
    String wanted = Tenants.check(tenantId);
    if (wanted.equals(tenant())) {
      return this;
    }
    throw new UnsupportedOperationException(
        "a RemoteMemory reads and writes the tenant of its API key ('"
            + tenant()
            + "'); open another client with a key of tenant '"
            + wanted
            + "'");
  }

  @Override
  public AddResult add(AddRequest request) {
    Objects.requireNonNull(request, "request");
    open();
    return WireFormat.addResult(
        http.ok("POST", "v1/memories/", WireFormat.addBody(request), Optional.empty()));
  }

  @Override
  public List<AddResult> addBatch(List<AddRequest> requests) {
    open();
    if (requests.isEmpty()) {
      return List.of();
    }
    ObjectNode body = MemoryJson.mapper().createObjectNode();
    ArrayNode list = body.putArray("requests");
    requests.forEach(r -> list.add(WireFormat.addBody(r)));
    JsonNode reply = http.ok("POST", "v1/memories/batch/", body, Optional.empty());
    return WireFormat.list(reply.path("results"), WireFormat::addResult);
  }

  @Override
  public SearchResult search(SearchRequest request) {
    return search(request, TimeView.CURRENT);
  }

  @Override
  public SearchResult search(SearchRequest request, TimeView relations) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(relations, "relations");
    open();
    return WireFormat.searchResult(
        http.ok(
            "POST",
            "v3/memories/search/",
            WireFormat.searchBody(request, relations),
            Optional.empty()));
  }

  @Override
  public List<GraphRelation> entityRelations(Scope scope, String entityName, TimeView view) {
    open();
    Map<String, String> q = scopeQuery(scope);
    q.put("entity", entity(entityName));
    viewQuery(q, view);
    return WireFormat.relations(
        http.ok("GET", "v1/graph/relations/" + query(q), null, Optional.empty()).path("relations"));
  }

  @Override
  public List<GraphRelation> memoryRelations(String memoryId, TimeView view) {
    String id = id(memoryId);
    Map<String, String> q = new LinkedHashMap<>();
    viewQuery(q, view);
    HttpTransport.Reply r =
        http.send("GET", "v1/memories/" + path(id) + "/relations/" + query(q), null);
    if (unknownMemory(r)) {
      return List.of();
    }
    return WireFormat.relations(checked(r, id).path("relations"));
  }

  @Override
  public List<GraphRelation> graphAround(Scope scope, String entityName, int hops, TimeView view) {
    open();
    if (hops < 1 || hops > 3) {
      throw new ValidationException("hops", "must be between 1 and 3, got " + hops);
    }
    Map<String, String> q = scopeQuery(scope);
    q.put("entity", entity(entityName));
    q.put("hops", Integer.toString(hops));
    viewQuery(q, view);
    return WireFormat.relations(
        http.ok("GET", "v1/graph/around/" + query(q), null, Optional.empty()).path("relations"));
  }

  @Override
  public int deleteEntity(Scope scope, String entityName) {
    open();
    Map<String, String> q = scopeQuery(scope);
    q.put("entity", entity(entityName));
    return http.ok("DELETE", "v1/graph/entities/" + query(q), null, Optional.empty())
        .path("count")
        .asInt();
  }

  @Override
  public Optional<MemoryItem> get(String memoryId) {
    String id = id(memoryId);
    HttpTransport.Reply r = http.send("GET", "v1/memories/" + path(id) + "/", null);
    if (unknownMemory(r)) {
      return Optional.empty();
    }
    return Optional.of(WireFormat.item(checked(r, id)));
  }

  /**
   * Reads a listing in server pages of at most {@value #SERVER_PAGE}; the total is the last page's.
   */
  @Override
  public Page<MemoryItem> list(ListRequest request) {
    Objects.requireNonNull(request, "request");
    open();
    List<MemoryItem> items = new ArrayList<>();
    long total = 0;
    int offset = request.offset();
    int wanted = request.limit();
    while (true) {
      ObjectNode body = MemoryJson.mapper().createObjectNode();
      body.set("filters", FilterJson.scoped(request.scope(), request.filter()));
      body.put("offset", offset);
      body.put("limit", Math.min(SERVER_PAGE, wanted - items.size()));
      body.put("show_expired", request.includeExpired());
      Page<MemoryItem> p = WireFormat.page(http.ok("POST", "v3/memories/", body, Optional.empty()));
      items.addAll(p.items());
      total = p.total();
      offset += p.items().size();
      if (items.size() >= wanted || p.items().isEmpty() || offset >= total) {
        break;
      }
    }
    return new Page<>(List.copyOf(items), total, request.offset());
  }

  @Override
  public MemoryItem update(String memoryId, MemoryUpdate update) {
    String id = id(memoryId);
    Objects.requireNonNull(update, "update");
    return WireFormat.item(
        http.ok(
            "PUT",
            "v1/memories/" + path(id) + "/",
            WireFormat.updateBody(update),
            Optional.of(id)));
  }

  @Override
  public void delete(String memoryId) {
    String id = id(memoryId);
    http.ok("DELETE", "v1/memories/" + path(id) + "/", null, Optional.of(id));
  }

  @Override
  public int deleteAll(Scope scope) {
    open();
    return http.ok("DELETE", "v1/memories/" + query(scopeQuery(scope)), null, Optional.empty())
        .path("count")
        .asInt();
  }

  @Override
  public List<EntitySummary> entities() {
    open();
    List<EntitySummary> all = new ArrayList<>();
    for (int page = 1; ; page++) {
      JsonNode reply =
          http.ok(
              "GET",
              "v1/entities/?page=" + page + "&page_size=" + SERVER_PAGE,
              null,
              Optional.empty());
      all.addAll(WireFormat.entities(reply.path("results")));
      if (reply.path("next").isNull() || reply.path("results").isEmpty()) {
        return List.copyOf(all);
      }
    }
  }

  @Override
  public List<HistoryEntry> history(String memoryId) {
    String id = id(memoryId);
    HttpTransport.Reply r = http.send("GET", "v1/memories/" + path(id) + "/history/", null);
    if (unknownMemory(r)) {
      return List.of();
    }
    return WireFormat.history(checked(r, id));
  }

  /**
   * The server's stores ({@code GET /readyz}, which also answers while the index is being
   * repaired).
   */
  @Override
  public MemoryStatus status() {
    open();
    HttpTransport.Reply r = http.send("GET", "readyz", null);
    JsonNode b = r.body();
    if (!b.has("record_sequence")) {
      throw RemoteErrors.of(
          r.status(),
          b.has("error")
              ? b
              : MemoryJson.mapper()
                  .createObjectNode()
                  .put(
                      "error",
                      "the server's readiness reply has no sequence numbers: "
                          + b.path("storage").asText("")),
          Optional.empty());
    }
    return new MemoryStatus(
        b.path("record_sequence").asLong(),
        b.path("index_committed_sequence").asLong(),
        !"caught up".equals(b.path("index").asText()));
  }

  @Override
  public void reset() {
    open();
    http.ok("POST", "reset", null, Optional.empty());
  }

  @Override
  public int purgeExpired() {
    open();
    return http.ok("POST", "v1/memories/purge-expired/", null, Optional.empty())
        .path("count")
        .asInt();
  }

  /**
   * {@code POST /v1/engram/export/} (an admin key): the records in engram export's format, history
   * rows with their sequence numbers. The server answers the whole export in one reply, read here
   * before the stream starts; for a very large tenant run {@code engram export} where the data
   * directory is.
   */
  @Override
  public Stream<MemoryRecord> exportRecords(ExportRequest request) {
    Objects.requireNonNull(request, "request");
    open();
    ObjectNode body = MemoryJson.mapper().createObjectNode();
    request
        .scope()
        .ifPresent(
            s -> {
              s.userId().ifPresent(id -> body.put("user_id", id));
              s.agentId().ifPresent(id -> body.put("agent_id", id));
              s.runId().ifPresent(id -> body.put("run_id", id));
            });
    body.put("page_size", request.pageSize());
    String lines = http.okText("POST", "v1/engram/export/", body);
    List<MemoryRecord> records = new ArrayList<>();
    try (MemoryRecordReader reader =
        MemoryRecordReader.open(
            new StringReader(lines),
            Optional.of(MemoryRecordReader.Format.ENGRAM_JSONL),
            Optional.empty())) {
      reader.forEachRemaining(records::add);
    } catch (ValidationException e) {
      throw new StorageException("the server's export could not be read: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader does not fail to close
    }
    return records.stream();
  }

  /**
   * {@code POST /v1/engram/import/} (an admin key): the records in one request, written by the
   * server in one transaction (all or none). The request must fit the server's body limit ({@code
   * server.max_body_bytes}): import a large export in batches (skipped ids make a rerun resume).
   */
  @Override
  public ImportResult importRecords(List<MemoryRecord> records) {
    Objects.requireNonNull(records, "records");
    open();
    ObjectNode body = MemoryJson.mapper().createObjectNode();
    ArrayNode list = body.putArray("records");
    records.forEach(r -> list.add(MemoryRecordJson.record(r)));
    JsonNode reply = http.ok("POST", "v1/engram/import/", body, Optional.empty());
    List<String> skipped = new ArrayList<>();
    reply.path("skipped_ids").forEach(id -> skipped.add(id.asText()));
    return new ImportResult(reply.path("imported").asInt(), skipped);
  }

  @Override
  public CompletableFuture<AddResult> addAsync(AddRequest request) {
    open();
    return CompletableFuture.supplyAsync(() -> add(request), async);
  }

  @Override
  public CompletableFuture<SearchResult> searchAsync(SearchRequest request) {
    open();
    return CompletableFuture.supplyAsync(() -> search(request), async);
  }

  /**
   * Stops the client's threads; later calls throw {@link IllegalStateException}. The server is not
   * affected.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      async.shutdown();
    }
  }

  private void open() {
    if (closed.get()) {
      throw new IllegalStateException("this RemoteMemory is closed");
    }
  }

  /** A 404 about the memory id (not a wrong address, which is an error). */
  private static boolean unknownMemory(HttpTransport.Reply r) {
    return r.status() == 404 && "memory_id".equals(r.body().path("detail").asText());
  }

  private static JsonNode checked(HttpTransport.Reply r, String id) {
    if (!r.ok()) {
      throw RemoteErrors.of(r.status(), r.body(), Optional.of(id));
    }
    return r.body();
  }

  /** A memory id as the engine checks it: not blank, trimmed (the server checks the rest). */
  private String id(String memoryId) {
    open();
    if (memoryId == null || memoryId.isBlank()) {
      throw new ValidationException("memory_id", "must not be empty");
    }
    return memoryId.trim();
  }

  private static String entity(String name) {
    if (name == null || name.isBlank()) {
      throw new ValidationException("entity", "is required");
    }
    return name;
  }

  private static Map<String, String> scopeQuery(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    Map<String, String> q = new LinkedHashMap<>();
    scope.userId().ifPresent(v -> q.put("user_id", v));
    scope.agentId().ifPresent(v -> q.put("agent_id", v));
    scope.runId().ifPresent(v -> q.put("run_id", v));
    return q;
  }

  private static void viewQuery(Map<String, String> q, TimeView view) {
    Objects.requireNonNull(view, "view");
    if (view.asOf() != null) {
      q.put("as_of", view.asOf().toString());
    }
    if (view.includeInvalidated()) {
      q.put("include_invalidated", "true");
    }
  }

  private static String query(Map<String, String> q) {
    StringBuilder s = new StringBuilder();
    q.forEach(
        (k, v) -> s.append(s.length() == 0 ? '?' : '&').append(k).append('=').append(encode(v)));
    return s.toString();
  }

  private static String path(String segment) {
    return encode(segment);
  }

  private static String encode(String v) {
    return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
  }
}

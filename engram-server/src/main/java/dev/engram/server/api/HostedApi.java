package dev.engram.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.EntitySummary;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.MemoryUpdate;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import dev.engram.server.events.AddEvent;
import dev.engram.server.events.AddEvents;
import dev.engram.server.http.Access;
import dev.engram.server.http.ApiException;
import dev.engram.server.http.Call;
import dev.engram.server.http.Fields;
import dev.engram.server.http.Reply;
import dev.engram.server.http.RouteTable;
import dev.engram.server.http.ServerMetrics;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * mem0's hosted platform API, the one {@code MemoryClient} (npm and PyPI) calls: trailing slashes,
 * {@code Token} keys, asynchronous adds with events, page-numbered listings, entities, batches,
 * exports, and the legacy v1/v2 routes of older clients. See docs/SERVER.md for the compatibility
 * table.
 */
public final class HostedApi {
  /** Default and largest page size of listings. */
  static final int DEFAULT_PAGE_SIZE = 100;

  static final int MAX_PAGE_SIZE = 1000;

  /** Most memories in one batch request. */
  static final int MAX_BATCH = 1000;

  private final AddEvents events;
  private final ServerMetrics metrics;

  public HostedApi(AddEvents events, ServerMetrics metrics) {
    this.events = events;
    this.metrics = metrics;
  }

  public void register(RouteTable t) {
    t.get(
        "/v1/ping/",
        Access.MEMBER,
        "Checks the key; returns the tenant as org and project",
        this::ping);
    t.post(
        "/v3/memories/add/",
        Access.MEMBER,
        "Adds messages asynchronously; returns an event id",
        this::addAsync);
    t.get(
        "/v1/event/{event_id}/",
        Access.MEMBER,
        "The status and results of an asynchronous add",
        this::event);
    t.get("/v1/events/", Access.MEMBER, "The tenant's add events, newest first", this::eventList);
    t.post(
        "/v3/memories/search/",
        Access.MEMBER,
        "Hybrid search in the scope named by filters",
        this::search);
    t.post(
        "/v3/memories/",
        Access.MEMBER,
        "A page of the memories of the scope named by filters",
        this::listV3);
    t.get("/v1/memories/{memory_id}/", Access.MEMBER, "One memory", this::get);
    t.put(
        "/v1/memories/{memory_id}/",
        Access.MEMBER,
        "Changes a memory's text, metadata or expiration",
        this::update);
    t.delete(
        "/v1/memories/{memory_id}/",
        Access.MEMBER,
        "Deletes a memory (its history stays)",
        this::delete);
    t.get(
        "/v1/memories/{memory_id}/history/",
        Access.MEMBER,
        "A memory's audit trail, oldest first",
        this::history);
    t.delete(
        "/v1/memories/",
        Access.ADMIN,
        "Deletes every memory of a scope (query user_id, agent_id, run_id)",
        this::deleteAll);
    t.get(
        "/v1/entities/",
        Access.MEMBER,
        "The users, agents and runs that own memories, with counts",
        this::entities);
    t.delete(
        "/v2/entities/{entity_type}/{entity_id}/",
        Access.ADMIN,
        "Deletes an entity's memories",
        this::deleteEntity);
    t.delete(
        "/v1/entities/{entity_type}/{entity_id}/",
        Access.ADMIN,
        "Deletes an entity's memories (deprecated)",
        this::deleteEntity);
    t.put("/v1/batch/", Access.MEMBER, "Updates up to 1000 memories", this::batchUpdate);
    t.delete("/v1/batch/", Access.MEMBER, "Deletes up to 1000 memories", this::batchDelete);
    t.post(
        "/v1/exports/",
        Access.ADMIN,
        "Starts an export of the memories named by filters",
        this::createExport);
    t.post("/v1/exports/get/", Access.ADMIN, "The memories of an export", this::getExport);
    // Legacy routes of older clients.
    t.post("/v1/memories/", Access.MEMBER, "Legacy add (synchronous)", this::addSync);
    t.get(
        "/v1/memories/",
        Access.MEMBER,
        "Legacy listing (query user_id, agent_id, run_id, page, page_size)",
        this::listV1);
    t.post(
        "/v1/memories/search/",
        Access.MEMBER,
        "Legacy search with top-level scope ids; a bare list",
        this::searchV1);
    t.post(
        "/v2/memories/search/",
        Access.MEMBER,
        "Legacy search with filters; a bare list",
        this::searchV2);
    t.post("/v2/memories/", Access.MEMBER, "Legacy listing with filters", this::listV3);
    // Engram's extensions, for the Java client (engram-client): the rest of the Memory API.
    t.post(
        "/v1/memories/batch/",
        Access.MEMBER,
        "Adds several requests in one transaction: all or none",
        this::addBatch);
    t.post(
        "/v1/memories/purge-expired/",
        Access.ADMIN,
        "Deletes the tenant's memories that are expired today",
        this::purgeExpired);
  }

  private Reply ping(Call c) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("status", "ok");
    o.put("org_id", c.principal().tenant());
    o.put("project_id", c.principal().tenant());
    o.putNull("user_email");
    o.put("role", c.principal().role().wireName());
    return Reply.json(o);
  }

  private Reply addAsync(Call c) {
    ObjectNode body = c.bodyObject();
    AddRequest request = AddBody.parse(body, c.receivedAt());
    // Refused here, before an event is queued: a text over the engine's limit is a 413 now, not a
    // failed event later.
    c.memory().check(request);
    if (!Fields.bool(body, "async_mode").orElse(true)) {
      AddEvent done = events.runNow(c.principal().tenant(), request);
      ObjectNode o = PlatformJson.event(done);
      return Reply.json(o);
    }
    AddEvent e = events.accept(c.principal().tenant(), request);
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("event_id", e.id());
    o.put("status", e.status().name());
    o.put("message", "Memory processing has been queued for background execution");
    return Reply.json(o);
  }

  private Reply addBatch(Call c) {
    JsonNode list = c.bodyObject().get("requests");
    if (list == null || !list.isArray()) {
      throw new ValidationException("requests", "must be a list of add request objects");
    }
    if (list.size() > MAX_BATCH) {
      throw new ValidationException(
          "requests", "at most " + MAX_BATCH + " per request, got " + list.size());
    }
    List<AddRequest> requests = new ArrayList<>();
    for (JsonNode item : list) {
      requests.add(AddBody.parse(item, c.receivedAt()));
    }
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    ArrayNode results = o.putArray("results");
    c.memory().addBatch(requests).forEach(r -> results.add(MemoryJson.addResult(r)));
    return Reply.json(o);
  }

  private Reply purgeExpired(Call c) {
    ObjectNode o = PlatformJson.message("Expired memories deleted");
    o.put("count", c.memory().purgeExpired());
    return Reply.json(o);
  }

  private Reply addSync(Call c) {
    AddRequest request = AddBody.parse(c.bodyObject(), c.receivedAt());
    return syncAdd(events, c, request);
  }

  /** Runs an add now (recorded as an event too) and answers mem0's {@code {"results": [...]}}. */
  static Reply syncAdd(AddEvents events, Call c, AddRequest request) {
    c.memory().check(request);
    AddEvent done = events.runNow(c.principal().tenant(), request);
    return new Reply(200, Reply.JSON, done.results().orElseThrow());
  }

  private Reply event(Call c) {
    AddEvent e =
        events
            .get(c.principal().tenant(), c.path("event_id"))
            .orElseThrow(() -> ApiException.notFound("event"));
    return Reply.json(PlatformJson.event(e));
  }

  private Reply eventList(Call c) {
    int page =
        Fields.queryInt("page", c.query("page").orElse(null), 1, Integer.MAX_VALUE).orElse(1);
    int size =
        Fields.queryInt("page_size", c.query("page_size").orElse(null), 1, MAX_PAGE_SIZE)
            .orElse(DEFAULT_PAGE_SIZE);
    String tenant = c.principal().tenant();
    long total = events.count(tenant);
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("count", total);
    o.put("next", (long) page * size < total ? pageUrl(c, page + 1, size) : null);
    o.put("previous", page > 1 ? pageUrl(c, page - 1, size) : null);
    ArrayNode results = o.putArray("results");
    long offset = (long) (page - 1) * size;
    if (offset < total) {
      events.list(tenant, (int) offset, size).forEach(e -> results.add(PlatformJson.event(e)));
    }
    return Reply.json(o);
  }

  private Reply search(Call c) {
    return Reply.json(
        PlatformJson.searchResult(SearchBody.parse(c.bodyObject(), 10).run(c, metrics)));
  }

  private Reply searchV1(Call c) {
    return Reply.json(
        PlatformJson.searchResult(
                SearchBody.parseWithTopLevelScope(c.bodyObject(), 100).run(c, metrics))
            .get("results"));
  }

  private Reply searchV2(Call c) {
    return Reply.json(
        PlatformJson.searchResult(SearchBody.parse(c.bodyObject(), 100).run(c, metrics))
            .get("results"));
  }

  private Reply listV3(Call c) {
    ObjectNode body = c.bodyObject();
    ScopedFilter scoped = ScopedFilter.parse("filters", body.get("filters"));
    int page =
        Fields.queryInt("page", c.query("page").orElse(null), 1, Integer.MAX_VALUE)
            .or(() -> Fields.integer(body, "page", 1, Integer.MAX_VALUE))
            .orElse(1);
    int size =
        Fields.queryInt("page_size", c.query("page_size").orElse(null), 1, MAX_PAGE_SIZE)
            .or(() -> Fields.integer(body, "page_size", 1, MAX_PAGE_SIZE))
            .orElse(DEFAULT_PAGE_SIZE);
    boolean expired = Fields.bool(body, "show_expired").orElse(false);
    Optional<Integer> offset = Fields.integer(body, "offset", 0, Integer.MAX_VALUE);
    if (offset.isPresent()) {
      // Engram's extension: any offset and limit, answered in Engram's {results, total, offset}
      // shape.
      int limit = Fields.integer(body, "limit", 1, MAX_PAGE_SIZE).orElse(DEFAULT_PAGE_SIZE);
      return Reply.json(
          MemoryJson.page(
              c.memory()
                  .list(
                      new ListRequest(
                          scoped.scope(), scoped.filter(), offset.get(), limit, expired))));
    }
    return Reply.json(listPage(c, scoped.scope(), scoped.filter(), page, size, expired));
  }

  private Reply listV1(Call c) {
    Scope scope = queryScope(c);
    int page =
        Fields.queryInt("page", c.query("page").orElse(null), 1, Integer.MAX_VALUE).orElse(1);
    int size =
        Fields.queryInt("page_size", c.query("page_size").orElse(null), 1, MAX_PAGE_SIZE)
            .or(() -> Fields.queryInt("limit", c.query("limit").orElse(null), 1, MAX_PAGE_SIZE))
            .orElse(DEFAULT_PAGE_SIZE);
    return Reply.json(listPage(c, scope, dev.engram.filter.Filter.all(), page, size, false));
  }

  private ObjectNode listPage(
      Call c, Scope scope, dev.engram.filter.Filter filter, int page, int size, boolean expired) {
    long offset = (long) (page - 1) * size;
    if (offset > Integer.MAX_VALUE) {
      throw new ValidationException("page", "is too large");
    }
    Page<MemoryItem> p =
        c.memory().list(new ListRequest(scope, filter, (int) offset, size, expired));
    return PlatformJson.page(p, page, size, n -> pageUrl(c, n, size));
  }

  private static String pageUrl(Call c, int page, int size) {
    return c.url() + "?page=" + page + "&page_size=" + size;
  }

  private Reply get(Call c) {
    String id = c.path("memory_id");
    MemoryItem m = c.memory().get(id).orElseThrow(() -> new MemoryNotFoundException(id));
    return Reply.json(MemoryJson.item(m));
  }

  private Reply update(Call c) {
    ObjectNode body = c.bodyObject();
    MemoryUpdate u = MemoryUpdateBody.parse(body);
    return Reply.json(MemoryJson.item(c.memory().update(c.path("memory_id"), u)));
  }

  private Reply delete(Call c) {
    c.memory().delete(c.path("memory_id"));
    ObjectNode o = PlatformJson.message("Memory deleted successfully!");
    o.put("cascade_count", 0);
    return Reply.json(o);
  }

  private Reply history(Call c) {
    String id = c.path("memory_id");
    Memory m = c.memory();
    var rows = m.history(id);
    Optional<MemoryItem> item = m.get(id);
    if (rows.isEmpty() && item.isEmpty()) {
      throw new MemoryNotFoundException(id);
    }
    return Reply.json(PlatformJson.history(rows, item));
  }

  private Reply deleteAll(Call c) {
    if (c.query("metadata").isPresent()) {
      // mem0 narrows a delete-all by metadata; ignoring it would delete the whole scope.
      throw new ValidationException(
          "metadata",
          "is not supported on delete-all: delete a scope, or delete the"
              + " memories a filtered listing returns with DELETE /v1/batch/");
    }
    Scope scope = queryScope(c);
    int n = c.memory().deleteAll(scope);
    ObjectNode o = PlatformJson.message("Memories deleted successfully!");
    o.put("count", n);
    return Reply.json(o);
  }

  static Scope queryScope(Call c) {
    if (c.query("app_id").isPresent()) {
      throw new ValidationException(
          "app_id", "is not supported: Engram scopes are user_id, agent_id and run_id");
    }
    String user = c.query("user_id").filter(s -> !s.isEmpty()).orElse(null);
    String agent = c.query("agent_id").filter(s -> !s.isEmpty()).orElse(null);
    String run = c.query("run_id").filter(s -> !s.isEmpty()).orElse(null);
    if (user == null && agent == null && run == null) {
      throw new ValidationException("user_id", "one of user_id, agent_id or run_id is required");
    }
    return Scope.of(user, agent, run);
  }

  private Reply entities(Call c) {
    int page =
        Fields.queryInt("page", c.query("page").orElse(null), 1, Integer.MAX_VALUE).orElse(1);
    int size =
        Fields.queryInt("page_size", c.query("page_size").orElse(null), 1, MAX_PAGE_SIZE)
            .orElse(DEFAULT_PAGE_SIZE);
    List<EntitySummary> all = c.memory().entities();
    return Reply.json(PlatformJson.entities(all, page, size, n -> pageUrl(c, n, size)));
  }

  private Reply deleteEntity(Call c) {
    EntitySummary.EntityType type =
        EntitySummary.EntityType.parse("entity_type", c.path("entity_type"));
    int n = c.memory().deleteAll(type.scope(c.path("entity_id")));
    ObjectNode o = PlatformJson.message("Entity deleted successfully.");
    o.put("count", n);
    return Reply.json(o);
  }

  private Reply batchUpdate(Call c) {
    List<JsonNode> items = batch(c.bodyObject());
    List<String> ids = new ArrayList<>();
    List<MemoryUpdate> updates = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      ids.add(batchId(item, i));
      updates.add(MemoryUpdateBody.parse(Fields.object(item)));
    }
    requireAll(c.memory(), ids);
    for (int i = 0; i < ids.size(); i++) {
      c.memory().update(ids.get(i), updates.get(i));
    }
    return Reply.json(PlatformJson.message("Successfully updated " + ids.size() + " memories"));
  }

  private Reply batchDelete(Call c) {
    List<JsonNode> items = batch(c.bodyObject());
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      ids.add(batchId(items.get(i), i));
    }
    requireAll(c.memory(), ids);
    ids.forEach(c.memory()::delete);
    return Reply.json(PlatformJson.message("Successfully deleted " + ids.size() + " memories"));
  }

  private static List<JsonNode> batch(ObjectNode body) {
    JsonNode list = body.get("memories");
    if (list == null || !list.isArray() || list.isEmpty()) {
      throw new ValidationException(
          "memories", "must be a non-empty list of {memory_id, ...} objects");
    }
    if (list.size() > MAX_BATCH) {
      throw new ValidationException(
          "memories", "at most " + MAX_BATCH + " per request, got " + list.size());
    }
    List<JsonNode> out = new ArrayList<>();
    list.forEach(out::add);
    return out;
  }

  private static String batchId(JsonNode item, int i) {
    if (!item.isObject()) {
      throw new ValidationException("memories[" + i + "]", "must be an object with memory_id");
    }
    return Fields.text(item, "memory_id")
        .filter(s -> !s.isBlank())
        .orElseThrow(() -> new ValidationException("memories[" + i + "].memory_id", "is required"));
  }

  /** Every id must be a memory of the tenant before any of the batch is applied. */
  private static void requireAll(Memory memory, List<String> ids) {
    for (String id : ids) {
      if (memory.get(id).isEmpty()) {
        throw new MemoryNotFoundException(id);
      }
    }
  }

  private Reply createExport(Call c) {
    ObjectNode body = c.bodyObject();
    ScopedFilter.parse("filters", body.get("filters"));
    String id =
        Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(MemoryJson.write(body.get("filters")).getBytes(StandardCharsets.UTF_8));
    ObjectNode o =
        PlatformJson.message(
            "Memory export request received. The export will be ready in a few seconds.");
    o.put("id", id);
    return Reply.json(o);
  }

  private Reply getExport(Call c) {
    ObjectNode body = c.bodyObject();
    JsonNode filters = body.get("filters");
    Optional<String> exportId = Fields.text(body, "memory_export_id");
    if (exportId.isPresent()) {
      try {
        filters =
            MemoryJson.mapper()
                .readTree(
                    new String(
                        Base64.getUrlDecoder().decode(exportId.get()), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
        throw ApiException.notFound("export");
      }
    }
    ScopedFilter scoped = ScopedFilter.parse("filters", filters);
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    ArrayNode results = o.putArray("results");
    int offset = 0;
    while (true) {
      Page<MemoryItem> p =
          c.memory().list(new ListRequest(scoped.scope(), scoped.filter(), offset, 1000, true));
      p.items().forEach(m -> results.add(MemoryJson.item(m)));
      offset += p.items().size();
      if (!p.hasMore() || p.items().isEmpty()) {
        break;
      }
    }
    o.put("count", results.size());
    return Reply.json(o);
  }
}

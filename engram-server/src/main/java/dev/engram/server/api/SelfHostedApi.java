package dev.engram.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.EntitySummary;
import dev.engram.ListRequest;
import dev.engram.MemoryNotFoundException;
import dev.engram.Scope;
import dev.engram.json.MemoryJson;
import dev.engram.server.events.AddEvents;
import dev.engram.server.http.Access;
import dev.engram.server.http.Call;
import dev.engram.server.http.Fields;
import dev.engram.server.http.Reply;
import dev.engram.server.http.RouteTable;
import dev.engram.server.http.ServerMetrics;

/**
 * mem0's self-hosted REST server ({@code server/main.py}): paths without trailing slashes,
 * synchronous adds, {@code X-API-Key} or {@code Bearer} keys, and its reply messages.
 */
public final class SelfHostedApi {
  private final ServerMetrics metrics;
  private final AddEvents events;

  public SelfHostedApi(AddEvents events, ServerMetrics metrics) {
    this.events = events;
    this.metrics = metrics;
  }

  public void register(RouteTable t) {
    t.post("/memories", Access.MEMBER, "Adds messages (synchronous)", this::add);
    t.get(
        "/memories",
        Access.MEMBER,
        "The memories of a scope (query user_id, agent_id, run_id, top_k)",
        this::list);
    t.get("/memories/{memory_id}", Access.MEMBER, "One memory, or null", this::get);
    t.put("/memories/{memory_id}", Access.MEMBER, "Changes a memory", this::update);
    t.delete("/memories/{memory_id}", Access.MEMBER, "Deletes a memory", this::delete);
    t.get("/memories/{memory_id}/history", Access.MEMBER, "A memory's history", this::history);
    t.delete("/memories", Access.ADMIN, "Deletes every memory of a scope", this::deleteAll);
    t.post("/search", Access.MEMBER, "Hybrid search", this::search);
    t.post(
        "/reset",
        Access.ADMIN,
        "Deletes every memory, history row and graph of the tenant",
        this::reset);
    t.get(
        "/entities", Access.MEMBER, "The users, agents and runs that own memories", this::entities);
    t.delete(
        "/entities/{entity_type}/{entity_id}",
        Access.ADMIN,
        "Deletes an entity's memories",
        this::deleteEntity);
  }

  private Reply add(Call c) {
    AddRequest request = AddBody.parse(c.bodyObject(), c.receivedAt());
    return HostedApi.syncAdd(events, c, request);
  }

  private Reply list(Call c) {
    Scope scope = HostedApi.queryScope(c);
    int topK = Fields.queryInt("top_k", c.query("top_k").orElse(null), 1, 1000).orElse(100);
    boolean expired =
        Fields.queryBool("show_expired", c.query("show_expired").orElse(null)).orElse(false);
    var page =
        c.memory().list(new ListRequest(scope, dev.engram.filter.Filter.all(), 0, topK, expired));
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    ArrayNode results = o.putArray("results");
    page.items().forEach(m -> results.add(MemoryJson.item(m)));
    return Reply.json(o);
  }

  private Reply get(Call c) {
    return Reply.json(
        c.memory()
            .get(c.path("memory_id"))
            .<com.fasterxml.jackson.databind.JsonNode>map(MemoryJson::item)
            .orElse(MemoryJson.mapper().nullNode()));
  }

  private Reply update(Call c) {
    c.memory().update(c.path("memory_id"), MemoryUpdateBody.parse(c.bodyObject()));
    return Reply.json(PlatformJson.message("Memory updated successfully!"));
  }

  private Reply delete(Call c) {
    c.memory().delete(c.path("memory_id"));
    return Reply.json(PlatformJson.message("Memory deleted successfully"));
  }

  private Reply history(Call c) {
    String id = c.path("memory_id");
    var rows = c.memory().history(id);
    if (rows.isEmpty() && c.memory().get(id).isEmpty()) {
      throw new MemoryNotFoundException(id);
    }
    return Reply.json(MemoryJson.history(rows));
  }

  private Reply deleteAll(Call c) {
    c.memory().deleteAll(HostedApi.queryScope(c));
    return Reply.json(PlatformJson.message("All relevant memories deleted"));
  }

  private Reply search(Call c) {
    return Reply.json(
        PlatformJson.searchResult(
            SearchBody.parseWithTopLevelScope(c.bodyObject(), 20).run(c, metrics)));
  }

  private Reply reset(Call c) {
    c.memory().reset();
    return Reply.json(PlatformJson.message("All memories reset"));
  }

  private Reply entities(Call c) {
    ArrayNode a = MemoryJson.mapper().createArrayNode();
    for (EntitySummary s : c.memory().entities()) {
      ObjectNode e = a.addObject();
      e.put("id", s.id());
      e.put("type", s.type().wireName());
      e.put("total_memories", s.memories());
      e.put("created_at", MemoryJson.time(s.createdAt()));
      e.put("updated_at", MemoryJson.time(s.updatedAt()));
    }
    return Reply.json(a);
  }

  private Reply deleteEntity(Call c) {
    EntitySummary.EntityType type =
        EntitySummary.EntityType.parse("entity_type", c.path("entity_type"));
    c.memory().deleteAll(type.scope(c.path("entity_id")));
    return Reply.json(PlatformJson.message("Entity deleted"));
  }
}

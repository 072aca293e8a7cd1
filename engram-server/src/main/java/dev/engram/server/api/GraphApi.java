package dev.engram.server.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.GraphRelation;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.graph.TimeView;
import dev.engram.json.JsonInput;
import dev.engram.json.MemoryJson;
import dev.engram.server.http.Access;
import dev.engram.server.http.ApiException;
import dev.engram.server.http.Call;
import dev.engram.server.http.Fields;
import dev.engram.server.http.Reply;
import dev.engram.server.http.RouteTable;
import java.util.List;

/**
 * Engram's graph memory over HTTP: an entity's relations and the graph around it, with both time
 * axes ({@code as_of}, {@code include_invalidated}). Empty when graph memory is off.
 */
public final class GraphApi {

  public void register(RouteTable t) {
    t.get(
        "/v1/graph/relations/",
        Access.MEMBER,
        "An entity's relations (query user_id/agent_id/run_id, entity, as_of, include_invalidated)",
        this::relations);
    t.get(
        "/v1/graph/around/",
        Access.MEMBER,
        "The relations within hops of an entity (query ..., entity, hops 1-3, as_of, include_invalidated)",
        this::around);
    t.get(
        "/v1/memories/{memory_id}/relations/",
        Access.MEMBER,
        "The graph relations learned from one memory (query as_of, include_invalidated)",
        this::ofMemory);
    t.delete(
        "/v1/graph/entities/",
        Access.ADMIN,
        "Deletes a scope's entities with this name and their relations (query user_id/agent_id/run_id, entity)",
        this::deleteEntity);
  }

  private Reply deleteEntity(Call c) {
    Scope scope = HostedApi.queryScope(c);
    String name = entity(c);
    int n;
    try {
      n = c.memory().deleteEntity(scope, name);
    } catch (IllegalStateException noGraph) {
      throw new ApiException(409, noGraph.getMessage(), "graph");
    }
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("count", n);
    return Reply.json(o);
  }

  private Reply ofMemory(Call c) {
    String id = c.path("memory_id");
    if (c.memory().get(id).isEmpty()) {
      throw new dev.engram.MemoryNotFoundException(id);
    }
    return reply(c.memory().memoryRelations(id, view(c)));
  }

  private Reply relations(Call c) {
    return reply(c.memory().entityRelations(HostedApi.queryScope(c), entity(c), view(c)));
  }

  private Reply around(Call c) {
    int hops = Fields.queryInt("hops", c.query("hops").orElse(null), 1, 3).orElse(2);
    Scope scope = HostedApi.queryScope(c);
    return reply(c.memory().graphAround(scope, entity(c), hops, view(c)));
  }

  private static String entity(Call c) {
    return c.query("entity")
        .filter(s -> !s.isBlank())
        .orElseThrow(() -> new ValidationException("entity", "is required"));
  }

  private static TimeView view(Call c) {
    boolean all =
        Fields.queryBool("include_invalidated", c.query("include_invalidated").orElse(null))
            .orElse(false);
    return c.query("as_of")
        .filter(s -> !s.isBlank())
        .map(s -> new TimeView(JsonInput.instant("as_of", s), all))
        .orElse(all ? TimeView.ALL : TimeView.CURRENT);
  }

  private static Reply reply(List<GraphRelation> relations) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    ArrayNode a = o.putArray("relations");
    relations.forEach(r -> a.add(PlatformJson.relation(r)));
    return Reply.json(o);
  }
}

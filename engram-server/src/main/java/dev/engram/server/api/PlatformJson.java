package dev.engram.server.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.EntitySummary;
import dev.engram.GraphRelation;
import dev.engram.HistoryEntry;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.SearchResult;
import dev.engram.json.MemoryJson;
import dev.engram.server.events.AddEvent;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The JSON shapes of mem0's hosted platform API (what {@code MemoryClient} reads), built on {@link
 * MemoryJson}'s memory items so that every surface writes a memory the same way. Engram's extra
 * fields (event_time, source_ids, score_details, relations) ride along; the clients ignore them.
 */
public final class PlatformJson {
  private PlatformJson() {}

  /**
   * A page of memories: {@code {count, next, previous, results}}; {@code next}/{@code previous} are
   * URLs or null.
   */
  public static ObjectNode page(
      Page<MemoryItem> p, int page, int pageSize, IntFunction<String> urlOfPage) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("count", p.total());
    o.put("next", (long) page * pageSize < p.total() ? urlOfPage.apply(page + 1) : null);
    o.put("previous", page > 1 ? urlOfPage.apply(page - 1) : null);
    ArrayNode results = o.putArray("results");
    p.items().forEach(m -> results.add(MemoryJson.item(m)));
    return o;
  }

  /** The status of an asynchronous add, as {@code GET /v1/event/{id}/} answers it. */
  public static ObjectNode event(AddEvent e) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("id", e.id());
    o.put("event_id", e.id());
    o.put("event_type", "ADD");
    o.put("status", e.status().name());
    JsonNode stored = e.results().map(PlatformJson::read).orElse(null);
    ArrayNode results = o.putArray("results");
    JsonNode payload = read(e.payload());
    if (stored != null) {
      for (JsonNode r : stored.path("results")) {
        ObjectNode item = results.addObject();
        item.put("id", r.path("id").asText());
        item.putObject("data").put("memory", r.path("memory").asText());
        item.put("memory", r.path("memory").asText());
        item.put("event", r.path("event").asText());
        copyScope(payload, item);
      }
      if (stored.has("relations")) {
        o.set("relations", stored.get("relations"));
      }
      if (stored.has("usage")) {
        o.set("usage", stored.get("usage"));
      }
    }
    o.put("error", e.error().orElse(null));
    o.put("created_at", MemoryJson.time(e.createdAt()));
    o.put("updated_at", MemoryJson.time(e.completedAt().or(e::startedAt).orElse(e.createdAt())));
    o.put("started_at", e.startedAt().map(MemoryJson::time).orElse(null));
    o.put("completed_at", e.completedAt().map(MemoryJson::time).orElse(null));
    if (e.completedAt().isPresent() && e.startedAt().isPresent()) {
      o.put(
          "latency",
          Duration.between(e.startedAt().get(), e.completedAt().get()).toMillis() / 1000.0);
    } else {
      o.putNull("latency");
    }
    return o;
  }

  private static void copyScope(JsonNode payload, ObjectNode item) {
    for (String k : new String[] {"user_id", "agent_id", "run_id"}) {
      if (payload.hasNonNull(k)) {
        item.put(k, payload.get(k).asText());
      }
    }
  }

  /**
   * mem0's entity listing: {@code {count, next, previous, results, total_users, total_agents,
   * total_apps, total_runs}}.
   */
  public static ObjectNode entities(
      List<EntitySummary> all, int page, int pageSize, IntFunction<String> urlOfPage) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("count", all.size());
    int from = (int) Math.min(all.size(), (long) (page - 1) * pageSize);
    int to = (int) Math.min(all.size(), (long) from + pageSize);
    o.put("next", to < all.size() ? urlOfPage.apply(page + 1) : null);
    o.put("previous", page > 1 ? urlOfPage.apply(page - 1) : null);
    ArrayNode results = o.putArray("results");
    for (EntitySummary s : all.subList(from, to)) {
      results.add(entity(s));
    }
    o.put(
        "total_users", all.stream().filter(s -> s.type() == EntitySummary.EntityType.USER).count());
    o.put(
        "total_agents",
        all.stream().filter(s -> s.type() == EntitySummary.EntityType.AGENT).count());
    o.put("total_apps", 0);
    o.put("total_runs", all.stream().filter(s -> s.type() == EntitySummary.EntityType.RUN).count());
    return o;
  }

  /**
   * One entity: {@code {id, name, type, total_memories, owner, metadata, created_at, updated_at}}.
   */
  public static ObjectNode entity(EntitySummary s) {
    ObjectNode e = MemoryJson.mapper().createObjectNode();
    e.put("id", s.id());
    e.put("name", s.id());
    e.put("type", s.type().wireName());
    e.put("total_memories", s.memories());
    e.putNull("owner");
    e.putNull("metadata");
    e.put("created_at", MemoryJson.time(s.createdAt()));
    e.put("updated_at", MemoryJson.time(s.updatedAt()));
    return e;
  }

  /** A memory's history as the platform writes it: Engram's rows plus the memory's scope. */
  public static ArrayNode history(List<HistoryEntry> rows, java.util.Optional<MemoryItem> memory) {
    ArrayNode a = MemoryJson.history(rows);
    for (JsonNode row : a) {
      ObjectNode r = (ObjectNode) row;
      r.put("updated_at", r.path("created_at").asText(null));
      memory.ifPresent(
          m -> {
            r.put("user_id", m.userId());
            r.put("agent_id", m.agentId());
            r.put("run_id", m.runId());
          });
    }
    return a;
  }

  /**
   * A graph relation as the graph routes and searches write it: {@link MemoryJson#relation} plus
   * Engram's {@code id}, {@code created_at}, {@code expired_at} and {@code score}, so that a client
   * can rebuild the {@link GraphRelation} exactly.
   */
  public static ObjectNode relation(GraphRelation r) {
    ObjectNode n = MemoryJson.relation(r);
    n.put("id", r.id());
    n.put("created_at", MemoryJson.time(r.createdAt()));
    n.put("expired_at", MemoryJson.time(r.expiredAt()));
    n.put("score", r.score());
    return n;
  }

  /**
   * Search results ({@link MemoryJson#searchResult}) with the relations written by {@link
   * #relation}.
   */
  public static ObjectNode searchResult(SearchResult r) {
    ObjectNode o = MemoryJson.searchResult(r);
    if (!r.relations().isEmpty()) {
      ArrayNode relations = o.putArray("relations");
      r.relations().forEach(g -> relations.add(relation(g)));
    }
    return o;
  }

  /** A {@code {"message": ...}} body. */
  public static ObjectNode message(String text) {
    return MemoryJson.mapper().createObjectNode().put("message", text);
  }

  private static JsonNode read(String json) {
    try {
      return MemoryJson.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored JSON is unreadable: " + e.getOriginalMessage(), e);
    }
  }
}

package dev.engram.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddResult;
import dev.engram.EventType;
import dev.engram.GraphRelation;
import dev.engram.HistoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.SearchResult;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Maps the API records to mem0's JSON wire shapes (mem0 Python {@code Memory}, newest, with
 * Engram's extra fields). Shared by the command line and the REST server so that both print the
 * same JSON.
 *
 * <ul>
 *   <li>memory item: {@code id, memory, hash, metadata (null when empty), created_at, updated_at},
 *       then, only when set, {@code user_id, agent_id, run_id, actor_id, role, event_time,
 *       source_ids, expiration_date};
 *   <li>search hit: the item with {@code score} after {@code metadata}, and {@code score_details}
 *       last (explain);
 *   <li>add result: {@code {"results": [{id, memory, event, previous_memory?, actor_id?, role?}]}};
 *   <li>list: {@code {"results": [...], "total": n, "offset": n}};
 *   <li>history row: {@code id (sequence number), memory_id, event, old_memory, new_memory,
 *       actor_id, role, created_at}}.
 * </ul>
 *
 * Times are ISO-8601 instants in UTC ({@code 2024-05-01T10:00:00Z}); dates are ISO-8601 local
 * dates; roles and fusion names are lower case. Stateless and thread-safe.
 */
public final class MemoryJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
  private static final ObjectMapper PRETTY =
      MAPPER.copy().enable(SerializationFeature.INDENT_OUTPUT);

  private MemoryJson() {}

  /** The shared mapper (plain Jackson, no modules); do not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** One memory, as {@code get} returns it. */
  public static ObjectNode item(MemoryItem m) {
    ObjectNode o = head(m);
    times(o, m);
    extras(o, m);
    return o;
  }

  /**
   * One search hit: the item with {@code score}, and {@code score_details} when the search
   * explained.
   */
  public static ObjectNode hit(SearchHit h) {
    MemoryItem m = h.memory();
    ObjectNode o = head(m);
    o.put("score", h.score());
    times(o, m);
    extras(o, m);
    if (h.details() != null) {
      o.set("score_details", scoreDetails(h.details()));
    }
    return o;
  }

  /** Search results: {@code {"results": [hit...]}}, best first. */
  public static ObjectNode searchResult(SearchResult r) {
    ObjectNode o = MAPPER.createObjectNode();
    ArrayNode results = o.putArray("results");
    r.hits().forEach(h -> results.add(hit(h)));
    if (!r.relations().isEmpty()) {
      ArrayNode relations = o.putArray("relations");
      r.relations().forEach(g -> relations.add(relation(g)));
    }
    return o;
  }

  /**
   * A graph relation in mem0's shape, {@code {source, relationship, destination}}, with Engram's
   * fact and time axes: {@code fact, valid_at, invalid_at} (null when unknown or still valid), and
   * its provenance: {@code source_ids} (the ids of the messages that stated it) and {@code
   * memory_ids} (the memories extracted with it), both arrays, empty when unknown.
   */
  public static ObjectNode relation(GraphRelation r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("source", r.source());
    n.put("relationship", r.relationship());
    n.put("destination", r.destination());
    n.put("fact", r.fact());
    n.put("valid_at", time(r.validAt()));
    n.put("invalid_at", time(r.invalidAt()));
    ArrayNode sources = n.putArray("source_ids");
    r.sourceIds().forEach(sources::add);
    ArrayNode memories = n.putArray("memory_ids");
    r.memoryIds().forEach(memories::add);
    return n;
  }

  /**
   * A relation of an add's changes: {@link #relation} with mem0's {@code target} for {@code
   * destination}.
   */
  private static ObjectNode changedRelation(GraphRelation r) {
    ObjectNode n = MAPPER.createObjectNode();
    relation(r)
        .properties()
        .forEach(
            f -> n.set("destination".equals(f.getKey()) ? "target" : f.getKey(), f.getValue()));
    return n;
  }

  /** The per-signal scores of a hit. {@code rerank_score} is present only when a reranker ran. */
  public static ObjectNode scoreDetails(ScoreDetails d) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("semantic_score", d.semantic());
    o.put("semantic_rank", d.semanticRank());
    o.put("bm25_score", d.keyword());
    o.put("bm25_rank", d.keywordRank());
    o.put("fused_score", d.fused());
    if (!Double.isNaN(d.rerank())) {
      o.put("rerank_score", d.rerank());
    }
    o.put("fusion", d.fusion() == null ? null : d.fusion().toLowerCase(Locale.ROOT));
    return o;
  }

  /**
   * An add result, {@code {"results": [...]}}; with graph memory on, {@code "relations":
   * {"deleted_entities": [...], "added_entities": [...]}} as mem0's v1.0 with graph (the relations
   * the add invalidated and added, each {@code {source, relationship, target}} as mem0 wrote them,
   * plus fact, valid_at, invalid_at and provenance; an invalidated relation is kept in the graph,
   * not deleted); with {@code "usage": {llm_calls, prompt_tokens, completion_tokens, llm_ms}} after
   * it when the add called a language model (an Engram extension of mem0's shape).
   */
  public static ObjectNode addResult(AddResult r) {
    ObjectNode o = MAPPER.createObjectNode();
    ArrayNode results = o.putArray("results");
    r.events().forEach(e -> results.add(event(e)));
    r.relations()
        .ifPresent(
            changes -> {
              ObjectNode rel = o.putObject("relations");
              ArrayNode deleted = rel.putArray("deleted_entities");
              changes.invalidated().forEach(x -> deleted.add(changedRelation(x)));
              ArrayNode added = rel.putArray("added_entities");
              changes.added().forEach(x -> added.add(changedRelation(x)));
            });
    if (r.usage().llmCalls() > 0) {
      ObjectNode u = o.putObject("usage");
      u.put("llm_calls", r.usage().llmCalls());
      u.put("prompt_tokens", r.usage().inputTokens());
      u.put("completion_tokens", r.usage().outputTokens());
      u.put("llm_ms", r.usage().llmTime().toMillis());
    }
    return o;
  }

  /**
   * One add event. {@code previous_memory} appears on UPDATE; {@code actor_id} and {@code role}
   * appear when the event came from a verbatim message (role known; {@code actor_id} may then be
   * null, as in mem0's infer=False).
   */
  public static ObjectNode event(MemoryEvent e) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", e.id());
    o.put("memory", e.memory());
    o.put("event", e.event().name());
    if (e.event() == EventType.UPDATE) {
      o.put("previous_memory", e.previousMemory());
    }
    if (e.role() != null) {
      o.put("actor_id", e.actorId());
      o.put("role", e.role().wireName());
    } else if (e.actorId() != null) {
      o.put("actor_id", e.actorId());
    }
    return o;
  }

  /** A page of memories: {@code {"results": [item...], "total": n, "offset": n}}. */
  public static ObjectNode page(Page<MemoryItem> p) {
    ObjectNode o = MAPPER.createObjectNode();
    ArrayNode results = o.putArray("results");
    p.items().forEach(m -> results.add(item(m)));
    o.put("total", p.total());
    o.put("offset", p.offset());
    return o;
  }

  /** One history row; every key is present, absent values are null. */
  public static ObjectNode historyEntry(HistoryEntry h) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", h.seq());
    o.put("memory_id", h.memoryId());
    o.put("event", h.event().name());
    o.put("old_memory", h.oldText());
    o.put("new_memory", h.newText());
    o.put("actor_id", h.actorId());
    o.put("role", h.role() == null ? null : h.role().wireName());
    o.put("created_at", time(h.at()));
    o.put("pipeline", h.pipeline());
    return o;
  }

  /** A memory's history as a JSON array, oldest first. */
  public static ArrayNode history(List<HistoryEntry> rows) {
    ArrayNode a = MAPPER.createArrayNode();
    rows.forEach(h -> a.add(historyEntry(h)));
    return a;
  }

  /** A JSON object of metadata, or JSON null when it is empty (mem0's convention). */
  public static JsonNode metadata(Map<String, Object> metadata) {
    return metadata == null || metadata.isEmpty()
        ? MAPPER.nullNode()
        : MAPPER.valueToTree(metadata);
  }

  /** ISO-8601 UTC text of an instant (the text of {@link Instant#toString()}), or null. */
  public static String time(Instant at) {
    return at == null ? null : InstantText.of(at);
  }

  /** Compact JSON text. */
  public static String write(JsonNode node) {
    return write(MAPPER, node);
  }

  /** Indented JSON text. */
  public static String writePretty(JsonNode node) {
    return write(PRETTY, node);
  }

  private static String write(ObjectMapper mapper, JsonNode node) {
    try {
      return mapper.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
  }

  private static ObjectNode head(MemoryItem m) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", m.id());
    o.put("memory", m.text());
    o.put("hash", m.hash());
    o.set("metadata", metadata(m.metadata()));
    return o;
  }

  private static void times(ObjectNode o, MemoryItem m) {
    o.put("created_at", time(m.createdAt()));
    o.put("updated_at", time(m.updatedAt()));
  }

  private static void extras(ObjectNode o, MemoryItem m) {
    putIfSet(o, "user_id", m.userId());
    putIfSet(o, "agent_id", m.agentId());
    putIfSet(o, "run_id", m.runId());
    putIfSet(o, "actor_id", m.actorId());
    putIfSet(o, "role", m.role() == null ? null : m.role().wireName());
    putIfSet(o, "event_time", time(m.eventTime()));
    if (!m.sourceIds().isEmpty()) {
      ArrayNode ids = o.putArray("source_ids");
      m.sourceIds().forEach(ids::add);
    }
    putIfSet(
        o, "expiration_date", m.expirationDate() == null ? null : m.expirationDate().toString());
  }

  private static void putIfSet(ObjectNode o, String key, String value) {
    if (value != null) {
      o.put(key, value);
    }
  }
}

package dev.engram.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.ChangePipelines;
import dev.engram.EntitySummary;
import dev.engram.EventType;
import dev.engram.GraphRelation;
import dev.engram.HistoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.MemoryUpdate;
import dev.engram.Page;
import dev.engram.Ranking;
import dev.engram.RelationChanges;
import dev.engram.Role;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.Usage;
import dev.engram.ValidationException;
import dev.engram.graph.TimeView;
import dev.engram.json.JsonInput;
import dev.engram.json.MemoryJson;
import dev.engram.json.MessageJson;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The client's side of the server's JSON: request bodies written from the API records (messages
 * through {@link MessageJson}, filters through {@link FilterJson}), and the API records read back
 * from the shapes that {@link MemoryJson} writes on the server.
 */
final class WireFormat {
  private WireFormat() {}

  // ---- requests

  static ObjectNode addBody(AddRequest r) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    r.scope().userId().ifPresent(v -> o.put("user_id", v));
    r.scope().agentId().ifPresent(v -> o.put("agent_id", v));
    r.scope().runId().ifPresent(v -> o.put("run_id", v));
    ArrayNode ms = o.putArray("messages");
    r.messages().forEach(m -> ms.add(MessageJson.write(m)));
    if (!r.metadata().isEmpty()) {
      o.set("metadata", MemoryJson.mapper().valueToTree(r.metadata()));
    }
    o.put("infer", r.infer());
    if (r.timestamp() != null) {
      o.put("timestamp", r.timestamp().toString());
    }
    if (r.expiration() != null) {
      o.put("expiration_date", r.expiration().toString());
    }
    return o;
  }

  static ObjectNode searchBody(SearchRequest r, TimeView relations) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("query", r.query());
    o.set("filters", FilterJson.scoped(r.scope(), r.filter()));
    o.put("top_k", r.topK());
    o.put("threshold", r.threshold());
    r.maxTokens().ifPresent(n -> o.put("max_tokens", n));
    o.put("explain", r.explain());
    o.put("show_expired", r.includeExpired());
    o.put("rerank", r.rerank());
    if (!r.ranking().equals(Ranking.DEFAULT)) {
      o.put(
          "ranking",
          r.ranking().spec()); // only when chosen: other servers of mem0's API need not know it
    }
    if (relations.asOf() != null) {
      o.put("as_of", relations.asOf().toString());
    }
    o.put("include_invalidated", relations.includeInvalidated());
    return o;
  }

  static ObjectNode updateBody(MemoryUpdate u) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    u.newText().ifPresent(t -> o.put("text", t));
    u.newMetadata().ifPresent(m -> o.set("metadata", MemoryJson.mapper().valueToTree(m)));
    u.newExpiration()
        .ifPresent(d -> o.put("expiration_date", d.map(LocalDate::toString).orElse(null)));
    if (o.isEmpty()) {
      throw new ValidationException(
          "update", "an update needs text, metadata or an expiration date");
    }
    return o;
  }

  // ---- responses

  static MemoryItem item(JsonNode n) {
    return new MemoryItem(
        n.path("id").asText(),
        n.path("memory").asText(),
        n.path("hash").asText(),
        metadata(n.get("metadata")),
        text(n, "user_id"),
        text(n, "agent_id"),
        text(n, "run_id"),
        text(n, "actor_id"),
        role(n),
        instant(n, "created_at"),
        instant(n, "updated_at"),
        instant(n, "event_time"),
        strings(n.get("source_ids")),
        date(n, "expiration_date"));
  }

  static Page<MemoryItem> page(JsonNode n) {
    return new Page<>(
        list(n.path("results"), WireFormat::item),
        n.path("total").asLong(),
        n.path("offset").asInt());
  }

  static SearchResult searchResult(JsonNode n) {
    List<SearchHit> hits =
        list(
            n.path("results"),
            h ->
                new SearchHit(
                    item(h),
                    h.path("score").asDouble(),
                    h.hasNonNull("score_details") ? scoreDetails(h.get("score_details")) : null));
    return new SearchResult(hits, relations(n.path("relations")));
  }

  private static ScoreDetails scoreDetails(JsonNode d) {
    return new ScoreDetails(
        d.path("semantic_score").asDouble(),
        d.path("semantic_rank").asInt(),
        d.path("bm25_score").asDouble(),
        d.path("bm25_rank").asInt(),
        d.path("fused_score").asDouble(),
        d.hasNonNull("rerank_score") ? d.get("rerank_score").asDouble() : Double.NaN,
        d.hasNonNull("fusion") ? d.get("fusion").asText().toUpperCase(Locale.ROOT) : null);
  }

  static AddResult addResult(JsonNode n) {
    List<MemoryEvent> events =
        list(
            n.path("results"),
            e ->
                new MemoryEvent(
                    e.path("id").asText(),
                    e.path("memory").asText(),
                    EventType.valueOf(e.path("event").asText()),
                    text(e, "previous_memory"),
                    text(e, "actor_id"),
                    role(e)));
    JsonNode u = n.get("usage");
    Usage usage =
        u == null || u.isNull()
            ? Usage.NONE
            : new Usage(
                u.path("llm_calls").asInt(),
                u.path("prompt_tokens").asLong(),
                u.path("completion_tokens").asLong(),
                Duration.ofMillis(u.path("llm_ms").asLong()));
    JsonNode r = n.get("relations");
    Optional<RelationChanges> changes =
        r == null || !r.isObject()
            ? Optional.empty()
            : Optional.of(
                new RelationChanges(
                    changedRelations(r.path("added_entities")),
                    changedRelations(r.path("deleted_entities"))));
    return new AddResult(events, usage, changes);
  }

  /**
   * The relations of an add's changes, written with mem0's {@code target} for the destination and
   * no id.
   */
  private static List<GraphRelation> changedRelations(JsonNode a) {
    return list(
        a,
        x ->
            new GraphRelation(
                x.path("id").asText(""),
                x.path("source").asText(),
                x.path("relationship").asText(),
                x.path("target").asText(x.path("destination").asText()),
                x.path("fact").asText(),
                instant(x, "valid_at"),
                instant(x, "invalid_at"),
                Optional.ofNullable(instant(x, "created_at")).orElse(Instant.EPOCH),
                instant(x, "expired_at"),
                x.path("score").asDouble(1.0),
                strings(x.get("source_ids")),
                strings(x.get("memory_ids"))));
  }

  static List<GraphRelation> relations(JsonNode a) {
    return list(
        a,
        x ->
            new GraphRelation(
                x.path("id").asText(),
                x.path("source").asText(),
                x.path("relationship").asText(),
                x.path("destination").asText(),
                x.path("fact").asText(),
                instant(x, "valid_at"),
                instant(x, "invalid_at"),
                instant(x, "created_at"),
                instant(x, "expired_at"),
                x.path("score").asDouble(),
                strings(x.get("source_ids")),
                strings(x.get("memory_ids"))));
  }

  static List<HistoryEntry> history(JsonNode a) {
    return list(
        a,
        h ->
            new HistoryEntry(
                h.path("id").asLong(),
                h.path("memory_id").asText(),
                EventType.valueOf(h.path("event").asText()),
                text(h, "old_memory"),
                text(h, "new_memory"),
                text(h, "actor_id"),
                role(h),
                instant(h, "created_at"),
                Optional.ofNullable(text(h, "pipeline")).orElse(ChangePipelines.UNKNOWN)));
  }

  static List<EntitySummary> entities(JsonNode a) {
    return list(
        a,
        e ->
            new EntitySummary(
                EntitySummary.EntityType.parse("type", e.path("type").asText()),
                e.path("id").asText(),
                e.path("total_memories").asLong(),
                instant(e, "created_at"),
                instant(e, "updated_at")));
  }

  // ---- helpers

  static <T> List<T> list(JsonNode a, Function<JsonNode, T> read) {
    List<T> out = new ArrayList<>();
    if (a != null && a.isArray()) {
      a.forEach(x -> out.add(read.apply(x)));
    }
    return List.copyOf(out);
  }

  private static String text(JsonNode n, String key) {
    JsonNode v = n.get(key);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static Role role(JsonNode n) {
    String r = text(n, "role");
    return r == null ? null : Role.parse(r);
  }

  private static Instant instant(JsonNode n, String key) {
    String t = text(n, key);
    return t == null ? null : JsonInput.instant(key, t);
  }

  private static LocalDate date(JsonNode n, String key) {
    String t = text(n, key);
    return t == null ? null : JsonInput.date(key, t);
  }

  private static Map<String, Object> metadata(JsonNode n) {
    return n == null || n.isNull() ? Map.of() : JsonInput.object("metadata", n);
  }

  private static List<String> strings(JsonNode a) {
    return list(a, JsonNode::asText);
  }
}

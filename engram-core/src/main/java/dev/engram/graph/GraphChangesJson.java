package dev.engram.graph;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Scope;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Encodes {@link GraphChanges} as JSON text and back, exactly: decoding an encoding gives an equal
 * value. Used to keep graph changes in a record store's outbox until a separate graph store applied
 * them.
 *
 * <p>Shape: {@code {"entities": [...], "relations": [...], "deleted_relations": [...],
 * "deleted_entities": [...]}}. An entity is {@code {id, name, normalized_name, type, embedding,
 * mentions, created_at, updated_at, scope, aliases}}; a relation {@code {id, source_id, name,
 * target_id, fact, embedding, valid_at, invalid_at, created_at, expired_at, source_message_ids,
 * memory_ids, scope}} (absent times are {@code null}). Embeddings are the base64 of their
 * little-endian float32 bytes (bit-exact, NaN payloads included); instants are ISO-8601 with their
 * nanoseconds; a scope is {@code {user_id, agent_id, run_id}} with {@code null} for an unset id.
 * Stateless and thread-safe.
 */
public final class GraphChangesJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private GraphChangesJson() {}

  /** The JSON text of {@code changes}. */
  public static String encode(GraphChanges changes) {
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode entities = root.putArray("entities");
    for (Entity e : changes.entities()) {
      entities.add(entity(e));
    }
    ArrayNode relations = root.putArray("relations");
    for (Relation r : changes.relations()) {
      relations.add(relation(r));
    }
    strings(root.putArray("deleted_relations"), changes.deletedRelations());
    strings(root.putArray("deleted_entities"), changes.deletedEntities());
    try {
      return MAPPER.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not encode graph changes", e);
    }
  }

  /**
   * The graph changes of a JSON text written by {@link #encode}.
   *
   * @throws IllegalArgumentException if the text is not such an encoding
   */
  public static GraphChanges decode(String json) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "graph changes are not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("graph changes must be a JSON object");
    }
    try {
      List<Entity> entities = new ArrayList<>();
      for (JsonNode n : array(root, "entities")) {
        entities.add(entity(n));
      }
      List<Relation> relations = new ArrayList<>();
      for (JsonNode n : array(root, "relations")) {
        relations.add(relation(n));
      }
      return new GraphChanges(
          entities,
          relations,
          stringSet(array(root, "deleted_relations")),
          stringSet(array(root, "deleted_entities")));
    } catch (DateTimeParseException | NullPointerException e) {
      throw new IllegalArgumentException("malformed graph changes: " + e.getMessage(), e);
    }
  }

  private static ObjectNode entity(Entity e) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", e.id());
    o.put("name", e.name());
    o.put("normalized_name", e.normalizedName());
    o.put("type", e.type());
    o.put("embedding", vector(e.embeddingView()));
    o.put("mentions", e.mentions());
    o.put("created_at", e.createdAt().toString());
    o.put("updated_at", e.updatedAt().toString());
    o.set("scope", scope(e.scope()));
    strings(o.putArray("aliases"), e.aliases());
    return o;
  }

  private static Entity entity(JsonNode n) {
    return new Entity(
        text(n, "id"),
        text(n, "name"),
        text(n, "normalized_name"),
        text(n, "type"),
        vector(text(n, "embedding")),
        required(n, "mentions").asInt(),
        instant(n, "created_at"),
        instant(n, "updated_at"),
        scope(required(n, "scope")),
        stringList(array(n, "aliases")));
  }

  private static ObjectNode relation(Relation r) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("id", r.id());
    o.put("source_id", r.sourceId());
    o.put("name", r.name());
    o.put("target_id", r.targetId());
    o.put("fact", r.fact());
    o.put("embedding", vector(r.factEmbeddingView()));
    putInstant(o, "valid_at", r.validAt());
    putInstant(o, "invalid_at", r.invalidAt());
    putInstant(o, "created_at", r.createdAt());
    putInstant(o, "expired_at", r.expiredAt());
    strings(o.putArray("source_message_ids"), r.sourceMessageIds());
    strings(o.putArray("memory_ids"), r.memoryIds());
    o.set("scope", scope(r.scope()));
    return o;
  }

  private static Relation relation(JsonNode n) {
    return new Relation(
        text(n, "id"),
        text(n, "source_id"),
        text(n, "name"),
        text(n, "target_id"),
        text(n, "fact"),
        vector(text(n, "embedding")),
        optionalInstant(n, "valid_at"),
        optionalInstant(n, "invalid_at"),
        instant(n, "created_at"),
        optionalInstant(n, "expired_at"),
        stringList(array(n, "source_message_ids")),
        stringList(array(n, "memory_ids")),
        scope(required(n, "scope")));
  }

  private static ObjectNode scope(Scope s) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("user_id", s.userId().orElse(null));
    o.put("agent_id", s.agentId().orElse(null));
    o.put("run_id", s.runId().orElse(null));
    return o;
  }

  private static Scope scope(JsonNode n) {
    return Scope.of(
        optionalText(n, "user_id"), optionalText(n, "agent_id"), optionalText(n, "run_id"));
  }

  private static String vector(float[] v) {
    ByteBuffer buf = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (float f : v) {
      buf.putInt(Float.floatToRawIntBits(f));
    }
    return Base64.getEncoder().encodeToString(buf.array());
  }

  private static float[] vector(String base64) {
    byte[] bytes = Base64.getDecoder().decode(base64);
    if (bytes.length % Float.BYTES != 0) {
      throw new IllegalArgumentException(
          "an embedding of " + bytes.length + " bytes is not a float32 array");
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    float[] v = new float[bytes.length / Float.BYTES];
    for (int i = 0; i < v.length; i++) {
      v[i] = Float.intBitsToFloat(buf.getInt());
    }
    return v;
  }

  private static void putInstant(ObjectNode o, String field, Instant t) {
    o.put(field, t == null ? null : t.toString());
  }

  private static void strings(ArrayNode a, Iterable<String> values) {
    for (String s : values) {
      a.add(s);
    }
  }

  private static JsonNode required(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw new IllegalArgumentException("graph changes: missing '" + field + "'");
    }
    return v;
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = required(n, field);
    if (!v.isTextual()) {
      throw new IllegalArgumentException("graph changes: '" + field + "' must be a string");
    }
    return v.asText();
  }

  private static String optionalText(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static Instant instant(JsonNode n, String field) {
    return Instant.parse(text(n, field));
  }

  private static Instant optionalInstant(JsonNode n, String field) {
    String s = optionalText(n, field);
    return s == null ? null : Instant.parse(s);
  }

  private static JsonNode array(JsonNode n, String field) {
    JsonNode v = required(n, field);
    if (!v.isArray()) {
      throw new IllegalArgumentException("graph changes: '" + field + "' must be an array");
    }
    return v;
  }

  private static List<String> stringList(JsonNode a) {
    List<String> out = new ArrayList<>(a.size());
    for (JsonNode s : a) {
      if (!s.isTextual()) {
        throw new IllegalArgumentException("graph changes: expected an array of strings");
      }
      out.add(s.asText());
    }
    return out;
  }

  private static Set<String> stringSet(JsonNode a) {
    return new LinkedHashSet<>(stringList(a));
  }
}

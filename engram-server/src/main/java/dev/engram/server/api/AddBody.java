package dev.engram.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import dev.engram.json.MessageJson;
import dev.engram.server.http.Fields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An add request body, as mem0's clients send it ({@code messages} as a string, one message object
 * or a list; {@code user_id}/{@code agent_id}/{@code run_id} at the top level; {@code metadata},
 * {@code infer}, {@code expiration_date}, {@code timestamp}), turned into an {@link AddRequest}. A
 * message without a time was said when the request was received. mem0's platform-only options
 * ({@code custom_instructions}, {@code custom_categories}, {@code includes}, {@code output_format},
 * ...) are accepted and ignored.
 *
 * <p>{@link #toJson} and {@link #fromJson} store a validated request (with its source ids) as an
 * add event's payload, so that a restart runs exactly what was accepted.
 */
public final class AddBody {
  private AddBody() {}

  /** Parses a request body received at {@code receivedAt}. */
  public static AddRequest parse(JsonNode body, Instant receivedAt) {
    ObjectNode o = Fields.object(body);
    for (String refused : new String[] {"app_id", "appId"}) {
      if (o.hasNonNull(refused)) {
        throw new ValidationException(
            "app_id", "is not supported: Engram scopes are user_id, agent_id and run_id");
      }
    }
    Scope scope = scope(o);
    JsonNode messages = o.get("messages");
    if (messages == null || messages.isNull()) {
      throw new ValidationException("messages", "is required");
    }
    List<Message> parsed =
        messages.isTextual()
            ? List.of(textMessage(messages.asText()))
            : MessageJson.parseList("messages", messages);
    Instant conversationTime = Fields.instant(o, "timestamp").orElse(receivedAt);
    AddRequest.Builder b = AddRequest.builder(scope).messages(parsed).timestamp(conversationTime);
    Fields.map(o, "metadata").ifPresent(b::metadata);
    Fields.bool(o, "infer").ifPresent(b::infer);
    Fields.date(o, "expiration_date").ifPresent(b::expiration);
    return b.build();
  }

  private static Message textMessage(String text) {
    if (text.isBlank()) {
      throw new ValidationException("messages", "must not be blank");
    }
    return Message.user(text);
  }

  static Scope scope(JsonNode o) {
    String user = id(o, "user_id", "userId");
    String agent = id(o, "agent_id", "agentId");
    String run = id(o, "run_id", "runId");
    if (user == null && agent == null && run == null) {
      throw new ValidationException("user_id", "one of user_id, agent_id or run_id is required");
    }
    return Scope.of(user, agent, run);
  }

  private static String id(JsonNode o, String name, String camel) {
    return Fields.text(o, name).or(() -> Fields.text(o, camel)).orElse(null);
  }

  /** The request with a source id on every message that has none ({@code <eventId>:<index>}). */
  public static AddRequest withSourceIds(AddRequest r, String eventId) {
    List<Message> out = new ArrayList<>(r.messages().size());
    for (int i = 0; i < r.messages().size(); i++) {
      Message m = r.messages().get(i);
      out.add(m.sourceId() == null ? m.withSourceId(eventId + ":" + i) : m);
    }
    AddRequest.Builder b =
        AddRequest.builder(r.scope()).messages(out).metadata(r.metadata()).infer(r.infer());
    if (r.timestamp() != null) {
      b.timestamp(r.timestamp());
    }
    if (r.expiration() != null) {
      b.expiration(r.expiration());
    }
    return b.build();
  }

  /** The stored form of a validated request. */
  public static String toJson(AddRequest r) {
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
      o.put("timestamp", MemoryJson.time(r.timestamp()));
    }
    if (r.expiration() != null) {
      o.put("expiration_date", r.expiration().toString());
    }
    return MemoryJson.write(o);
  }

  /** Reads a stored request back. */
  public static AddRequest fromJson(String json) {
    try {
      return parse(MemoryJson.mapper().readTree(json), Instant.EPOCH);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new ValidationException(
          "payload", "stored add payload is not JSON: " + e.getOriginalMessage());
    }
  }
}

package dev.engram.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.ValidationException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parses chat messages in mem0's (OpenAI-style) JSON form into {@link Message}s, and writes them
 * back: {@code {"role": "user", "content": "...", "name": "Alice", "timestamp":
 * "2024-05-01T10:00:00Z", "source_id": "D1:3"}}. {@code role} and {@code content} are required; the
 * other keys are optional and other keys are ignored. {@code timestamp} is ISO-8601 text (see
 * {@link JsonInput#instant}) or a whole number of seconds since the epoch. Stateless and
 * thread-safe.
 */
public final class MessageJson {
  private MessageJson() {}

  /** Parses one message from JSON text. */
  public static Message parse(String json) {
    return parse("message", JsonInput.tree("message", json));
  }

  /**
   * Parses one message object.
   *
   * @param path the message's place in the input (for example {@code messages[2]} or {@code line
   *     7}), used as the prefix of error fields
   * @throws ValidationException naming {@code path.key} if a key is missing or has the wrong type
   */
  public static Message parse(String path, JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new ValidationException(
          path,
          "a message must be a JSON object with role and content, got "
              + (node == null ? "nothing" : node.getNodeType().name().toLowerCase(Locale.ROOT)));
    }
    Role role = role(path, requiredText(path, node, "role"));
    String content = requiredText(path, node, "content");
    if (content.isBlank()) {
      throw new ValidationException(path + ".content", "must not be empty");
    }
    String name = optionalText(path, node, "name");
    String sourceId = optionalId(path, node, "source_id");
    Instant timestamp = timestamp(path + ".timestamp", node.get("timestamp"));
    return new Message(role, content, name, timestamp, sourceId);
  }

  /** Parses a JSON array of message objects, or a single message object. */
  public static List<Message> parseList(String path, JsonNode node) {
    if (node != null && node.isArray()) {
      if (node.isEmpty()) {
        throw new ValidationException(path, "at least one message is required");
      }
      List<Message> out = new ArrayList<>(node.size());
      for (int i = 0; i < node.size(); i++) {
        out.add(parse(path + "[" + i + "]", node.get(i)));
      }
      return out;
    }
    return List.of(parse(path, node));
  }

  /** The JSON form of a message; optional keys appear only when set. */
  public static ObjectNode write(Message m) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("role", m.role().wireName());
    o.put("content", m.content());
    if (m.name() != null) {
      o.put("name", m.name());
    }
    if (m.timestamp() != null) {
      o.put("timestamp", MemoryJson.time(m.timestamp()));
    }
    if (m.sourceId() != null) {
      o.put("source_id", m.sourceId());
    }
    return o;
  }

  private static Role role(String path, String value) {
    try {
      return Role.parse(value);
    } catch (ValidationException e) {
      throw new ValidationException(
          path + ".role",
          "unknown role '" + value + "' (expected system, user, assistant or tool)");
    }
  }

  private static String requiredText(String path, JsonNode node, String key) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      throw new ValidationException(path + "." + key, "is required");
    }
    if (!v.isTextual()) {
      throw new ValidationException(path + "." + key, "must be a string, got " + v);
    }
    return v.asText();
  }

  private static String optionalText(String path, JsonNode node, String key) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new ValidationException(path + "." + key, "must be a string, got " + v);
    }
    return v.asText();
  }

  private static String optionalId(String path, JsonNode node, String key) {
    JsonNode v = node.get(key);
    if (v != null && v.isIntegralNumber()) {
      return v.asText();
    }
    return optionalText(path, node, key);
  }

  private static Instant timestamp(String field, JsonNode v) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isIntegralNumber()) {
      if (!v.canConvertToLong()) {
        throw new ValidationException(field, "epoch seconds out of range: " + v);
      }
      try {
        return Instant.ofEpochSecond(v.asLong());
      } catch (DateTimeException e) {
        throw new ValidationException(field, "epoch seconds out of range: " + v);
      }
    }
    if (!v.isTextual()) {
      throw new ValidationException(field, "must be ISO-8601 text or epoch seconds, got " + v);
    }
    return JsonInput.instant(field, v.asText());
  }
}

package dev.engram.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a route answers: a status, a content type and the body's bytes. JSON is written straight to
 * bytes (no intermediate text), so that {@link ReplyWriter} can send the whole answer with its
 * length in one write.
 */
@SuppressWarnings("ArrayRecordComponent") // written once to the response, never compared or hashed
public record Reply(int status, String contentType, byte[] body) {
  public static final String JSON = "application/json";

  public Reply {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
  }

  /** A reply whose body is text, sent in UTF-8. */
  public Reply(int status, String contentType, String body) {
    this(
        status, contentType, Objects.requireNonNull(body, "body").getBytes(StandardCharsets.UTF_8));
  }

  public static Reply json(JsonNode node) {
    return json(200, node);
  }

  public static Reply json(int status, JsonNode node) {
    try {
      return new Reply(status, JSON, MemoryJson.mapper().writeValueAsBytes(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written", e);
    }
  }

  public static Reply text(String contentType, String body) {
    return new Reply(200, contentType, body);
  }
}

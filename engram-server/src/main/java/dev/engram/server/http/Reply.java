package dev.engram.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.util.Objects;

/** What a route answers: a status, a content type and a body. */
public record Reply(int status, String contentType, String body) {
  public static final String JSON = "application/json";

  public Reply {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(body, "body");
  }

  public static Reply json(JsonNode node) {
    return json(200, node);
  }

  public static Reply json(int status, JsonNode node) {
    return new Reply(status, JSON, MemoryJson.write(node));
  }

  public static Reply text(String contentType, String body) {
    return new Reply(200, contentType, body);
  }
}

package dev.engram.server.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * Reads request bodies as JSON trees, strictly and within limits: nesting at most {@value
 * #MAX_DEPTH} levels, strings at most the body limit, no duplicate keys, no trailing content, valid
 * UTF-8. Any failure is a 400 that says where the JSON broke.
 */
public final class JsonBodies {
  /** The deepest nesting a request body may have. */
  public static final int MAX_DEPTH = 64;

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

  static {
    MAPPER
        .getFactory()
        .setStreamReadConstraints(
            StreamReadConstraints.builder()
                .maxNestingDepth(MAX_DEPTH)
                .maxNumberLength(100)
                .maxStringLength(16 << 20)
                .build());
  }

  private JsonBodies() {}

  /** Parses a body; an empty body is a 400. */
  public static JsonNode parse(byte[] body) {
    if (body.length == 0) {
      throw new ApiException(400, "invalid request: the body is empty; send a JSON object", "body");
    }
    try {
      JsonNode node = MAPPER.readTree(body);
      if (node == null || node.isMissingNode()) {
        throw new ApiException(
            400, "invalid request: the body is empty; send a JSON object", "body");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new ApiException(
          400, "invalid request: malformed JSON: " + e.getOriginalMessage() + location(e), "body");
    } catch (IOException e) {
      throw new ApiException(400, "invalid request: unreadable body: " + e.getMessage(), "body");
    }
  }

  /** A new empty JSON object. */
  public static com.fasterxml.jackson.databind.node.ObjectNode emptyObject() {
    return MAPPER.createObjectNode();
  }

  private static String location(JsonProcessingException e) {
    return e.getLocation() == null
        ? ""
        : " (line "
            + e.getLocation().getLineNr()
            + ", column "
            + e.getLocation().getColumnNr()
            + ")";
  }
}

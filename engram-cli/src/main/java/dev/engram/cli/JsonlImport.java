package dev.engram.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.json.JsonInput;
import dev.engram.json.MessageJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON Lines of messages: one object per line, {@code {"role", "content", "name"?,
 * "timestamp"?, "source_id"?, "metadata"?, "user_id"?, "agent_id"?, "run_id"?}}. Per-line ids
 * override the command's scope options id by id. Blank lines are skipped. Each line becomes one add
 * request.
 */
final class JsonlImport {
  private JsonlImport() {}

  static ImportPlan plan(List<String> lines, ScopeOptions scope, boolean infer, int batchSize) {
    if (batchSize < 1) {
      throw new ValidationException("batch_size", "must be 1 or more, got " + batchSize);
    }
    List<List<AddRequest>> batches = new ArrayList<>();
    List<AddRequest> current = new ArrayList<>();
    int count = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      current.add(request("line " + (i + 1), lines.get(i), scope, infer));
      count++;
      if (current.size() == batchSize) {
        batches.add(current);
        current = new ArrayList<>();
      }
    }
    if (!current.isEmpty()) {
      batches.add(current);
    }
    if (count == 0) {
      throw new ValidationException("file", "holds no messages");
    }
    return new ImportPlan(batches, count + (count == 1 ? " line" : " lines"));
  }

  private static AddRequest request(String path, String line, ScopeOptions options, boolean infer) {
    JsonNode node = JsonInput.tree(path, line);
    if (!node.isObject()) {
      throw new ValidationException(
          path, "must be a JSON object with role and content, got " + line.strip());
    }
    Scope scope;
    try {
      scope =
          options.overriddenBy(
              id(path, node, "user_id"), id(path, node, "agent_id"), id(path, node, "run_id"));
    } catch (ValidationException e) {
      throw new ValidationException(path, e.getMessage());
    }
    Message message = MessageJson.parse(path, node);
    JsonNode meta = node.get("metadata");
    Map<String, Object> metadata =
        meta == null || meta.isNull() ? Map.of() : JsonInput.object(path + ".metadata", meta);
    return AddRequest.builder(scope).message(message).metadata(metadata).infer(infer).build();
  }

  private static String id(String path, JsonNode node, String key) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new ValidationException(path + "." + key, "must be a string, got " + v);
    }
    return v.asText();
  }
}

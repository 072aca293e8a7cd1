package dev.engram.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.TextTooLongException;
import dev.engram.ValidationException;
import dev.engram.json.JsonInput;
import dev.engram.json.MessageJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads JSON Lines of messages: one object per line, {@code {"role", "content", "name"?,
 * "timestamp"?, "source_id"?, "metadata"?, "user_id"?, "agent_id"?, "run_id"?}}. Per-line ids
 * override the command's scope options id by id. Blank lines are skipped. Each line becomes one add
 * request.
 *
 * <p>An invalid line (malformed, or a message longer than the memory accepts) stops the import
 * before anything is written, naming the line; with {@link OnInvalid#SKIP} it is left out and
 * reported instead, so that nothing is lost silently.
 */
final class JsonlImport {
  private JsonlImport() {}

  /** What an import does with an invalid line. */
  enum OnInvalid {
    /** Stop before anything is written (the default). */
    STOP,
    /** Leave the line out, say so on stderr, and import the others. */
    SKIP
  }

  /** A parsed line: its number (from 1) and its add request. */
  record Line(int number, AddRequest request) {}

  /** The parsed lines of a file, and how many invalid ones were skipped. */
  record Lines(List<Line> lines, int skipped) {
    Lines {
      lines = List.copyOf(lines);
    }
  }

  /**
   * Parses every non-blank line. An invalid line throws (stop) or is reported to {@code skipped}
   * and left out (skip).
   */
  static Lines parse(
      List<String> lines,
      ScopeOptions scope,
      boolean infer,
      OnInvalid onInvalid,
      Consumer<ValidationException> skipped) {
    List<Line> out = new ArrayList<>();
    int skips = 0;
    int count = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      count++;
      try {
        out.add(new Line(i + 1, request("line " + (i + 1), lines.get(i), scope, infer)));
      } catch (ValidationException e) {
        if (onInvalid == OnInvalid.STOP) {
          throw e;
        }
        skipped.accept(e);
        skips++;
      }
    }
    if (count == 0) {
      throw new ValidationException("file", "holds no messages");
    }
    return new Lines(out, skips);
  }

  /**
   * Checks every parsed line against the memory ({@code check}, for example {@code Memory::check}:
   * the text limit) before anything is written. A line that fails throws (stop: the message names
   * the line and says that nothing was imported) or is reported to {@code skipped} and left out
   * (skip).
   */
  static Lines check(
      Lines parsed,
      Consumer<AddRequest> check,
      OnInvalid onInvalid,
      Consumer<ValidationException> skipped) {
    List<Line> kept = new ArrayList<>(parsed.lines().size());
    int skips = parsed.skipped();
    for (Line line : parsed.lines()) {
      try {
        check.accept(line.request());
        kept.add(line);
      } catch (ValidationException e) {
        ValidationException located = located(e, "line " + line.number());
        if (onInvalid == OnInvalid.STOP) {
          throw new ValidationException(
              located.field(),
              located.reason()
                  + " (nothing was imported; --on-invalid=skip imports the other lines)");
        }
        skipped.accept(located);
        skips++;
      }
    }
    return new Lines(kept, skips);
  }

  /** The lines in batches of {@code batchSize} requests, in file order. */
  static ImportPlan plan(Lines lines, int batchSize, int lineCount) {
    List<List<AddRequest>> batches = new ArrayList<>();
    List<AddRequest> current = new ArrayList<>();
    for (Line line : lines.lines()) {
      current.add(line.request());
      if (current.size() == batchSize) {
        batches.add(current);
        current = new ArrayList<>();
      }
    }
    if (!current.isEmpty()) {
      batches.add(current);
    }
    return new ImportPlan(batches, lineCount + (lineCount == 1 ? " line" : " lines"));
  }

  /** A request's error located at its line: one line is one message, its content. */
  private static ValidationException located(ValidationException e, String path) {
    if (e.field().equals("messages[0].content")) {
      return e instanceof TextTooLongException t
          ? new TextTooLongException(path + ".content", t.length(), t.limit())
          : new ValidationException(path + ".content", e.reason());
    }
    return e.within(path);
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

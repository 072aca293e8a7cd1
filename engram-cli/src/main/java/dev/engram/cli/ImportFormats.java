package dev.engram.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import dev.engram.json.MemoryRecordJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Tells the format of an import file from its first JSON value, reading no more than that, and else
 * from its name:
 *
 * <ul>
 *   <li>a first line that is an Engram export header: {@code engram-jsonl};
 *   <li>a first memory (a line, the first element of an array, or of a document's {@code results})
 *       with a {@code memory} key: {@code mem0};
 *   <li>a first line with {@code role} or {@code content}: {@code jsonl} (messages); a first
 *       element with {@code conversation}: {@code locomo};
 *   <li>otherwise the name: {@code .jsonl}/{@code .ndjson} = jsonl, {@code .json} = locomo.
 * </ul>
 */
final class ImportFormats {
  private ImportFormats() {}

  static ImportCommand.Format detect(Path file) {
    try {
      JsonNode first = firstValue(file);
      if (first != null) {
        if (MemoryRecordJson.isHeader(first)) {
          return ImportCommand.Format.ENGRAM_JSONL;
        }
        if (first.has("memory")) {
          return ImportCommand.Format.MEM0;
        }
        if (first.has("conversation")) {
          return ImportCommand.Format.LOCOMO;
        }
        if (first.has("role") || first.has("content")) {
          return ImportCommand.Format.JSONL;
        }
      }
    } catch (IOException e) {
      // not JSON we can sniff: fall back to the name, whose reader reports the problem
    }
    String name =
        file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return ImportCommand.Format.JSONL;
    }
    if (name.endsWith(".json")) {
      return ImportCommand.Format.LOCOMO;
    }
    throw new ValidationException(
        "format",
        "cannot tell the format of '"
            + file
            + "'; pass --format jsonl,"
            + " locomo, engram-jsonl or mem0");
  }

  /**
   * The first object of the file, streamed so that a large one-line document is never held whole: a
   * top-level object (the first line of JSON Lines, an Engram header), or the first element of a
   * top-level array or of a top-level object's {@code results}/{@code memories} array; null if
   * there is none.
   */
  private static JsonNode firstValue(Path file) throws IOException {
    BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
    in.mark(1);
    if (in.read() != '\uFEFF') {
      in.reset();
    }
    try (JsonParser p = MemoryJson.mapper().getFactory().createParser(in)) {
      JsonToken t = p.nextToken();
      if (t == JsonToken.START_ARRAY) {
        return p.nextToken() == JsonToken.START_OBJECT ? p.readValueAsTree() : null;
      }
      if (t != JsonToken.START_OBJECT) {
        return null;
      }
      ObjectNode first = MemoryJson.mapper().createObjectNode();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        t = p.nextToken();
        if (("results".equals(field) || "memories".equals(field)) && t == JsonToken.START_ARRAY) {
          return p.nextToken() == JsonToken.START_OBJECT ? p.readValueAsTree() : null;
        }
        first.set(field, p.readValueAsTree());
      }
      return first;
    }
  }
}

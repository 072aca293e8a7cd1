package dev.engram.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.Hashes;
import dev.engram.HistoryEntry;
import dev.engram.MemoryItem;
import dev.engram.MemoryRecord;
import dev.engram.Scope;
import dev.engram.ValidationException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The Engram export format, {@value #FORMAT} version {@value #VERSION}: JSON Lines, one JSON object
 * per line. Shared by the command line ({@code engram export}, {@code engram import}) and the REST
 * server.
 *
 * <p>Line 1 is the header: {@code {"format": "engram-memories", "version": 1, "tenant", "scope":
 * {user_id?, agent_id?, run_id?} or null, "exported_at"}}. Every following line is one {@link
 * MemoryRecord}:
 *
 * <pre>
 * {"id", "deleted": false, "memory", "hash", "metadata": {...}, "user_id", "agent_id", "run_id", "actor_id", "role",
 *  "created_at", "updated_at", "event_time", "expiration_date", "source_ids": [...], "context"?,
 *  "history": [{"event", "old_memory", "new_memory", "actor_id", "role", "created_at", "pipeline"}, ...]}
 * </pre>
 *
 * A deleted memory is {@code {"id", "deleted": true, "history": [...]}}. Every key is written,
 * absent values as null, except {@code context} (the memory's source context, {@link
 * MemoryRecord#context}), written only when the memory has one and read as none when absent, so
 * that files of older versions read as before. Times are ISO-8601 instants in UTC with their full
 * precision (nanoseconds round-trip), dates ISO-8601 local dates, roles lower case. History rows
 * carry no sequence number in a file: their order is the array's, and an import numbers them anew;
 * the server's export ({@link #recordWithSequences}) adds each row's {@code seq}, which is read
 * when present (and still renumbered by an import). Embeddings are not exported.
 *
 * <p>Reading is strict about types and required keys ({@code id}, {@code history} and, unless
 * deleted, {@code memory}, {@code created_at}, {@code updated_at}; a missing {@code hash} is
 * computed) and ignores unknown keys, so that a newer minor addition does not break an older
 * reader. A history row's {@code pipeline} (which path through the engine made the change, see
 * {@link dev.engram.ChangePipelines}) was added within version 1: a row without it (an older
 * export) reads as {@link dev.engram.ChangePipelines#UNKNOWN}. Stateless and thread-safe.
 */
public final class MemoryRecordJson {
  /** The format name in the header line. */
  public static final String FORMAT = "engram-memories";

  /** The format version this code writes and reads. */
  public static final int VERSION = 1;

  private MemoryRecordJson() {}

  /** The header line's object. */
  public static ObjectNode header(String tenant, Optional<Scope> scope, Instant exportedAt) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("format", FORMAT);
    o.put("version", VERSION);
    o.put("tenant", tenant);
    if (scope.isPresent()) {
      ObjectNode s = o.putObject("scope");
      scope.get().userId().ifPresent(id -> s.put("user_id", id));
      scope.get().agentId().ifPresent(id -> s.put("agent_id", id));
      scope.get().runId().ifPresent(id -> s.put("run_id", id));
    } else {
      o.putNull("scope");
    }
    o.put("exported_at", MemoryJson.time(exportedAt));
    return o;
  }

  /** True if the object is a header line of this format (any version). */
  public static boolean isHeader(JsonNode node) {
    return node != null && node.isObject() && FORMAT.equals(node.path("format").asText(null));
  }

  /**
   * Checks a header line.
   *
   * @throws ValidationException naming {@code path} if it is not a header of this format or of a
   *     newer version
   */
  public static void checkHeader(String path, JsonNode node) {
    if (!isHeader(node)) {
      throw new ValidationException(
          path,
          "is not an Engram export header (expected {\"format\": \""
              + FORMAT
              + "\", \"version\": "
              + VERSION
              + ", ...} as the first line)");
    }
    JsonNode v = node.get("version");
    if (v == null || !v.isIntegralNumber()) {
      throw new ValidationException(path + ".version", "must be a number, got " + v);
    }
    if (v.asInt() > VERSION || v.asInt() < 1) {
      throw new ValidationException(
          path + ".version",
          "is "
              + v.asInt()
              + ", but this Engram reads version "
              + VERSION
              + (v.asInt() > VERSION ? " (the file was written by a newer Engram)" : ""));
    }
  }

  /** One record as a JSON object. */
  public static ObjectNode record(MemoryRecord r) {
    return record(r, false);
  }

  /**
   * One record as a JSON object whose history rows also carry their sequence number ({@code
   * "seq"}), so that a reader sees the history exactly as the source's {@code Memory.history} gives
   * it (the server's export).
   */
  public static ObjectNode recordWithSequences(MemoryRecord r) {
    return record(r, true);
  }

  private static ObjectNode record(MemoryRecord r, boolean withSequences) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("id", r.id());
    o.put("deleted", r.isDeleted());
    r.memory()
        .ifPresent(
            m -> {
              o.put("memory", m.text());
              o.put("hash", m.hash());
              o.set("metadata", MemoryJson.mapper().valueToTree(m.metadata()));
              o.put("user_id", m.userId());
              o.put("agent_id", m.agentId());
              o.put("run_id", m.runId());
              o.put("actor_id", m.actorId());
              o.put("role", m.role() == null ? null : m.role().wireName());
              o.put("created_at", MemoryJson.time(m.createdAt()));
              o.put("updated_at", MemoryJson.time(m.updatedAt()));
              o.put("event_time", MemoryJson.time(m.eventTime()));
              o.put(
                  "expiration_date",
                  m.expirationDate() == null ? null : m.expirationDate().toString());
              ArrayNode sources = o.putArray("source_ids");
              m.sourceIds().forEach(sources::add);
              if (!r.context().isEmpty()) {
                o.put("context", r.context());
              }
            });
    ArrayNode history = o.putArray("history");
    for (HistoryEntry h : r.history()) {
      ObjectNode row = history.addObject();
      if (withSequences) {
        row.put("seq", h.seq());
      }
      row.put("event", h.event().name());
      row.put("old_memory", h.oldText());
      row.put("new_memory", h.newText());
      row.put("actor_id", h.actorId());
      row.put("role", h.role() == null ? null : h.role().wireName());
      row.put("created_at", MemoryJson.time(h.at()));
      row.put("pipeline", h.pipeline());
    }
    return o;
  }

  /** One record as one line of compact JSON (no line break inside, none at the end). */
  public static String line(MemoryRecord r) {
    return MemoryJson.write(record(r));
  }

  /**
   * Reads one record line's object.
   *
   * @param path names the record in error messages, for example {@code line 7}
   * @throws ValidationException naming {@code path} and the field if a required key is missing or
   *     has a wrong type
   */
  public static MemoryRecord parse(String path, JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new ValidationException(path, "must be a JSON object (one memory record), got " + node);
    }
    String id = JsonFields.requiredText(path, node, "id");
    JsonNode deleted = node.get("deleted");
    if (deleted != null && !deleted.isNull() && !deleted.isBoolean()) {
      throw new ValidationException(path + ".deleted", "must be true or false, got " + deleted);
    }
    List<HistoryEntry> history = history(path, id, node);
    Optional<MemoryItem> memory =
        deleted != null && deleted.asBoolean()
            ? Optional.empty()
            : Optional.of(item(path, id, node));
    try {
      return new MemoryRecord(
          id,
          memory,
          history,
          memory.isEmpty() ? "" : JsonFields.optionalText(path, node, "context").orElse(""));
    } catch (ValidationException e) {
      throw e.within(path);
    }
  }

  private static MemoryItem item(String path, String id, JsonNode n) {
    String text = JsonFields.requiredText(path, n, "memory");
    String hash = JsonFields.optionalText(path, n, "hash").orElseGet(() -> Hashes.md5(text));
    try {
      return new MemoryItem(
          id,
          text,
          hash,
          JsonFields.metadata(path, n, "metadata"),
          JsonFields.optionalText(path, n, "user_id").orElse(null),
          JsonFields.optionalText(path, n, "agent_id").orElse(null),
          JsonFields.optionalText(path, n, "run_id").orElse(null),
          JsonFields.optionalText(path, n, "actor_id").orElse(null),
          JsonFields.optionalRole(path, n, "role").orElse(null),
          JsonFields.requiredInstant(path, n, "created_at"),
          JsonFields.requiredInstant(path, n, "updated_at"),
          JsonFields.optionalInstant(path, n, "event_time").orElse(null),
          JsonFields.stringList(path, n, "source_ids"),
          JsonFields.optionalDate(path, n, "expiration_date").orElse(null));
    } catch (ValidationException e) {
      throw e.field().startsWith(path) ? e : e.within(path);
    }
  }

  private static List<HistoryEntry> history(String path, String id, JsonNode node) {
    JsonNode rows = node.get("history");
    if (rows == null || rows.isNull()) {
      throw new ValidationException(path + ".history", "is required");
    }
    if (!rows.isArray()) {
      throw new ValidationException(
          path + ".history", "must be an array of history rows, got " + rows);
    }
    List<HistoryEntry> out = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      String rowPath = path + ".history[" + i + "]";
      JsonNode row = rows.get(i);
      if (!row.isObject()) {
        throw new ValidationException(rowPath, "must be a JSON object, got " + row);
      }
      EventType event = event(rowPath, JsonFields.requiredText(rowPath, row, "event"));
      out.add(
          new HistoryEntry(
              seq(rowPath, row),
              id,
              event,
              JsonFields.optionalText(rowPath, row, "old_memory").orElse(null),
              JsonFields.optionalText(rowPath, row, "new_memory").orElse(null),
              JsonFields.optionalText(rowPath, row, "actor_id").orElse(null),
              JsonFields.optionalRole(rowPath, row, "role").orElse(null),
              JsonFields.requiredInstant(rowPath, row, "created_at"),
              pipeline(rowPath, row)));
    }
    return out;
  }

  /** A history row's optional sequence number; 0 when absent. */
  private static long seq(String path, JsonNode row) {
    JsonNode seq = row.get("seq");
    if (seq == null || seq.isNull()) {
      return 0;
    }
    if (!seq.isIntegralNumber() || seq.asLong() < 0) {
      throw new ValidationException(
          path + ".seq", "must be a whole number of at least 0, got " + seq);
    }
    return seq.asLong();
  }

  /** The row's pipeline; {@code unknown} for a row of an export written before rows carried one. */
  private static String pipeline(String rowPath, JsonNode row) {
    Optional<String> name = JsonFields.optionalText(rowPath, row, "pipeline");
    return name.isEmpty()
        ? ChangePipelines.UNKNOWN
        : ChangePipelines.check(rowPath + ".pipeline", name.get());
  }

  private static EventType event(String path, String text) {
    String e = text.trim().toUpperCase(Locale.ROOT);
    if (!e.equals("ADD") && !e.equals("UPDATE") && !e.equals("DELETE")) {
      throw new ValidationException(
          path + ".event", "must be ADD, UPDATE or DELETE, got '" + text + "'");
    }
    return EventType.valueOf(e);
  }
}

package dev.engram.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ExportRequest;
import dev.engram.ImportResult;
import dev.engram.MemoryRecord;
import dev.engram.Scope;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import dev.engram.json.MemoryRecordJson;
import dev.engram.server.http.Access;
import dev.engram.server.http.Call;
import dev.engram.server.http.Fields;
import dev.engram.server.http.Reply;
import dev.engram.server.http.RouteTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Engram's full-fidelity export and import of memory records (each memory with its whole history,
 * deleted ones included), in the format of {@code engram export} ({@link MemoryRecordJson}); the
 * routes of {@code RemoteMemory.exportRecords} and {@code importRecords}. Admin keys only: an
 * export reads, and an import writes, the whole tenant of the key.
 *
 * <p>The export answers JSON Lines ({@value #JSON_LINES}): the header line, one record per line,
 * with each history row's {@code seq}; the body is written whole, so a very large tenant is better
 * exported with {@code engram export} where its data directory is. The import takes {@code
 * {"records": [...]}} and writes them in one transaction: a bad record fails the whole request (400
 * naming {@code records[i]}) and writes nothing.
 */
public final class TransferApi {
  /** The media type of the export. */
  public static final String JSON_LINES = "application/x-ndjson";

  public void register(RouteTable t) {
    t.post(
        "/v1/engram/export/",
        Access.ADMIN,
        "Exports the tenant's memories (or one scope's) with their history,"
            + " as JSON Lines in engram export's format",
        this::export);
    t.post(
        "/v1/engram/import/",
        Access.ADMIN,
        "Imports memory records with their history (engram export's format)"
            + " in one transaction",
        this::importRecords);
  }

  private Reply export(Call c) {
    ObjectNode body = c.optionalBodyObject();
    Optional<Scope> scope = scope(body);
    int pageSize =
        Fields.integer(body, "page_size", 1, ExportRequest.MAX_PAGE_SIZE)
            .orElse(ExportRequest.DEFAULT_PAGE_SIZE);
    StringBuilder out = new StringBuilder();
    out.append(
            MemoryJson.write(
                MemoryRecordJson.header(c.principal().tenant(), scope, c.receivedAt())))
        .append('\n');
    try (Stream<MemoryRecord> records =
        c.memory().exportRecords(new ExportRequest(scope, pageSize))) {
      records.forEach(
          r -> out.append(MemoryJson.write(MemoryRecordJson.recordWithSequences(r))).append('\n'));
    }
    return new Reply(200, JSON_LINES + "; charset=utf-8", out.toString());
  }

  /**
   * The scope named by the body's user_id, agent_id, run_id; empty (the whole tenant) when none is
   * given.
   */
  private static Optional<Scope> scope(ObjectNode body) {
    if (body.has("app_id")) {
      throw new ValidationException(
          "app_id", "is not supported: Engram scopes are user_id, agent_id and run_id");
    }
    String user = Fields.text(body, "user_id").orElse(null);
    String agent = Fields.text(body, "agent_id").orElse(null);
    String run = Fields.text(body, "run_id").orElse(null);
    return user == null && agent == null && run == null
        ? Optional.empty()
        : Optional.of(Scope.of(user, agent, run));
  }

  private Reply importRecords(Call c) {
    JsonNode list = c.bodyObject().get("records");
    if (list == null || !list.isArray()) {
      throw new ValidationException(
          "records", "must be a list of memory records (engram export's format)");
    }
    List<MemoryRecord> records = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      records.add(MemoryRecordJson.parse("records[" + i + "]", list.get(i)));
    }
    ImportResult result = c.memory().importRecords(records);
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.put("imported", result.imported());
    ArrayNode skipped = o.putArray("skipped_ids");
    result.skippedIds().forEach(skipped::add);
    return Reply.json(o);
  }
}

package dev.engram.json;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.Hashes;
import dev.engram.HistoryEntry;
import dev.engram.MemoryItem;
import dev.engram.MemoryRecord;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.ValidationException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one memory item of a mem0 export into a {@link MemoryRecord}: the items mem0's {@code
 * get_all} returns (OSS Python and TypeScript) and the platform's v2/v3 lists and exports, in
 * snake_case or in the camelCase the TypeScript client hands its callers.
 *
 * <ul>
 *   <li>kept as they are: {@code id} (mem0's id stays the memory id), {@code memory}, {@code
 *       metadata}, {@code created_at}, {@code updated_at} (the creation time if absent), {@code
 *       user_id}, {@code agent_id}, {@code run_id} ({@code session_id} if there is no run id),
 *       {@code actor_id}, {@code role}, {@code expiration_date} (a date, or the UTC date of a
 *       date-time); Engram's own extras {@code event_time} and {@code source_ids} when present;
 *   <li>kept in the metadata, under the same key, when the metadata does not already have it:
 *       {@code app_id} (Engram has no app scope), {@code categories}, {@code attributed_to};
 *   <li>recomputed: {@code hash} (the md5 of the text, as mem0 computes it);
 *   <li>ignored: {@code score}, {@code score_details}, {@code structured_attributes}, {@code
 *       replaced_by}, {@code synthesized}, {@code lifecycle_state}, {@code immutable} and any other
 *       key.
 * </ul>
 *
 * A mem0 item carries no history, so the record gets one ADD row at its creation time with its
 * text, actor and role, and the pipeline {@value dev.engram.ChangePipelines#IMPORT}. An item
 * without a user, agent or run id takes the default scope if one is given, else it is rejected.
 * Stateless and thread-safe.
 */
public final class Mem0MemoryJson {
  private static final Set<String> IDENTITY_KEYS =
      Set.of("user_id", "agent_id", "run_id", "actor_id");

  private Mem0MemoryJson() {}

  /**
   * Reads one mem0 memory item.
   *
   * @param path names the item in error messages, for example {@code line 3} or {@code results[2]}
   * @param defaultScope the scope of an item that has no user, agent or run id
   * @throws ValidationException naming {@code path} and the field if the item is not a mem0 memory,
   *     has no scope and there is no default, or has a malformed field
   */
  public static MemoryRecord parse(String path, JsonNode n, Optional<Scope> defaultScope) {
    if (n == null || !n.isObject()) {
      throw new ValidationException(path, "must be a JSON object (one mem0 memory), got " + n);
    }
    String id = JsonFields.requiredText(path, n, "id");
    String text = JsonFields.requiredText(path, n, "memory");
    if (text.isBlank()) {
      throw new ValidationException(path + ".memory", "must not be empty");
    }
    Map<String, Object> metadata = new LinkedHashMap<>(JsonFields.metadata(path, n, "metadata"));
    for (String key : metadata.keySet()) {
      if (IDENTITY_KEYS.contains(key)) {
        throw new ValidationException(
            path + ".metadata." + key, "identity keys belong in the scope, not in" + " metadata");
      }
    }
    keepInMetadata(path, n, metadata, "app_id", "app_id", "appId");
    keepInMetadata(path, n, metadata, "categories", "categories");
    keepInMetadata(path, n, metadata, "attributed_to", "attributed_to", "attributedTo");
    Scope scope = scope(path, n, defaultScope);
    String actor = JsonFields.optionalText(path, n, "actor_id", "actorId").orElse(null);
    Role role = JsonFields.optionalRole(path, n, "role").orElse(null);
    Instant created = JsonFields.requiredInstant(path, n, "created_at", "createdAt");
    Instant updated =
        JsonFields.optionalInstant(path, n, "updated_at", "updatedAt").orElse(created);
    MemoryItem item;
    try {
      item =
          new MemoryItem(
              id,
              text,
              Hashes.md5(text),
              metadata,
              scope.userId().orElse(null),
              scope.agentId().orElse(null),
              scope.runId().orElse(null),
              actor,
              role,
              created,
              updated,
              JsonFields.optionalInstant(path, n, "event_time", "eventTime").orElse(null),
              JsonFields.stringList(path, n, "source_ids", "sourceIds"),
              JsonFields.optionalDate(path, n, "expiration_date", "expirationDate").orElse(null));
    } catch (ValidationException e) {
      throw e.field().startsWith(path) ? e : e.within(path);
    }
    return MemoryRecord.live(
        item,
        List.of(
            new HistoryEntry(
                0, id, EventType.ADD, null, text, actor, role, created, ChangePipelines.IMPORT)));
  }

  private static Scope scope(String path, JsonNode n, Optional<Scope> defaultScope) {
    String user = JsonFields.optionalId(path, n, "user_id", "userId").orElse(null);
    String agent = JsonFields.optionalId(path, n, "agent_id", "agentId").orElse(null);
    String run =
        JsonFields.optionalId(path, n, "run_id", "runId", "session_id", "sessionId").orElse(null);
    if (user == null && agent == null && run == null) {
      return defaultScope.orElseThrow(
          () ->
              new ValidationException(
                  path,
                  "has no user_id, agent_id or run_id;"
                      + " give a default scope (engram import --user-id ID) to import memories without one"));
    }
    try {
      return Scope.of(user, agent, run);
    } catch (ValidationException e) {
      throw e.within(path);
    }
  }

  private static void keepInMetadata(
      String path, JsonNode n, Map<String, Object> metadata, String as, String... keys) {
    if (metadata.containsKey(as)) {
      return;
    }
    JsonFields.find(n, keys)
        .ifPresent(
            f -> {
              JsonNode holder = MemoryJson.mapper().createObjectNode().set(as, f.getValue());
              metadata.putAll(JsonInput.object(path, holder));
            });
  }
}

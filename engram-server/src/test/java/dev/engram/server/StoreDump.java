package dev.engram.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.EntitySummary;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.json.MemoryJson;
import java.util.Collection;
import java.util.TreeMap;

/**
 * A canonical text of what tenants hold, read through the Memory API only: per tenant its entities
 * (ids, types, counts, times) and every memory of every entity (expired ones too) with its full
 * history, ordered by id. Two dumps are equal exactly when nothing a client could read has changed.
 */
final class StoreDump {
  private StoreDump() {}

  static String of(Memory root, Collection<String> tenants) {
    return of(root, tenants, java.util.List.of());
  }

  /**
   * Also the history of each of {@code knownIds} (deleted memories keep theirs) as each tenant sees
   * it.
   */
  static String of(Memory root, Collection<String> tenants, Collection<String> knownIds) {
    ObjectNode out = MemoryJson.mapper().createObjectNode();
    for (String tenant : new java.util.TreeSet<>(tenants)) {
      Memory m = root.forTenant(tenant);
      ObjectNode t = tenant(m);
      ObjectNode known = t.putObject("known_history");
      for (String id : new java.util.TreeSet<>(knownIds)) {
        known.set(id, MemoryJson.history(m.history(id)));
      }
      out.set(tenant, t);
    }
    return MemoryJson.writePretty(out);
  }

  static ObjectNode tenant(Memory m) {
    ObjectNode t = MemoryJson.mapper().createObjectNode();
    ArrayNode entities = t.putArray("entities");
    TreeMap<String, ObjectNode> memories = new TreeMap<>();
    for (EntitySummary e : m.entities()) {
      entities
          .addObject()
          .put("type", e.type().wireName())
          .put("id", e.id())
          .put("memories", e.memories())
          .put("created_at", e.createdAt().toString())
          .put("updated_at", e.updatedAt().toString());
      int offset = 0;
      while (true) {
        Page<MemoryItem> p =
            m.list(
                new ListRequest(
                    e.scope(),
                    dev.engram.filter.Filter.all(),
                    offset,
                    ListRequest.MAX_LIMIT,
                    true));
        for (MemoryItem item : p.items()) {
          ObjectNode o = MemoryJson.item(item);
          o.set("history", MemoryJson.history(m.history(item.id())));
          memories.put(item.id(), o);
        }
        offset += p.items().size();
        if (!p.hasMore() || p.items().isEmpty()) {
          break;
        }
      }
    }
    ArrayNode list = t.putArray("memories");
    memories.values().forEach(list::add);
    return t;
  }
}

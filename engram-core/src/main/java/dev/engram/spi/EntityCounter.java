package dev.engram.spi;

import dev.engram.EntitySummary;
import dev.engram.EntitySummary.EntityType;
import dev.engram.MemoryItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/** Counts a tenant's memories per user, agent and run id by visiting them: the reference for {@link MemoryStore#entities}. */
final class EntityCounter {
  private EntityCounter() {}

  static List<EntitySummary> count(String tenant, Consumer<Consumer<StoredMemory>> forEach) {
    Map<String, Acc> byKey = new TreeMap<>();
    forEach.accept(m -> {
      if (!m.tenant().equals(tenant)) {
        return;
      }
      MemoryItem item = m.item();
      add(byKey, EntityType.USER, item.userId(), item);
      add(byKey, EntityType.AGENT, item.agentId(), item);
      add(byKey, EntityType.RUN, item.runId(), item);
    });
    List<EntitySummary> out = new ArrayList<>(byKey.size());
    byKey.values().forEach(a -> out.add(new EntitySummary(a.type, a.id, a.count, a.created, a.updated)));
    return out;
  }

  private static void add(Map<String, Acc> byKey, EntityType type, String id, MemoryItem item) {
    if (id == null) {
      return;
    }
    Acc a = byKey.computeIfAbsent(type.ordinal() + "\u0000" + id, k -> new Acc(type, id));
    a.count++;
    a.created = a.created == null || item.createdAt().isBefore(a.created) ? item.createdAt() : a.created;
    a.updated = a.updated == null || item.updatedAt().isAfter(a.updated) ? item.updatedAt() : a.updated;
  }

  private static final class Acc {
    final EntityType type;
    final String id;
    long count;
    Instant created;
    Instant updated;

    Acc(EntityType type, String id) {
      this.type = type;
      this.id = id;
    }
  }
}

package dev.engram.spi;

import dev.engram.EntitySummary;
import dev.engram.EntitySummary.EntityType;
import dev.engram.MemoryItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Counts a tenant's memories per user, agent and run id by visiting them: the reference for {@link
 * MemoryStore#entities}.
 */
final class EntityCounter {
  private EntityCounter() {}

  static List<EntitySummary> count(String tenant, Consumer<Consumer<StoredMemory>> forEach) {
    Map<Key, Acc> byKey = new TreeMap<>(Comparator.comparing(Key::type).thenComparing(Key::id));
    forEach.accept(
        m -> {
          if (!m.tenant().equals(tenant)) {
            return;
          }
          MemoryItem item = m.item();
          add(byKey, EntityType.USER, item.userId(), item);
          add(byKey, EntityType.AGENT, item.agentId(), item);
          add(byKey, EntityType.RUN, item.runId(), item);
        });
    List<EntitySummary> out = new ArrayList<>(byKey.size());
    byKey
        .values()
        .forEach(a -> out.add(new EntitySummary(a.type, a.id, a.count, a.created, a.updated)));
    return out;
  }

  private static void add(Map<Key, Acc> byKey, EntityType type, String id, MemoryItem item) {
    if (id == null) {
      return;
    }
    Acc a = byKey.computeIfAbsent(new Key(type, id), k -> new Acc(type, id));
    a.count++;
    a.created =
        a.created == null || item.createdAt().isBefore(a.created) ? item.createdAt() : a.created;
    a.updated =
        a.updated == null || item.updatedAt().isAfter(a.updated) ? item.updatedAt() : a.updated;
  }

  /** An entity's key, ordered by type (in declaration order), then id. */
  private record Key(EntityType type, String id) {}

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

package dev.engram.sqlite;

import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded graph vectors of recently searched scopes, so that repeated similarity searches of a scope do not read
 * and decode its rows again. Least recently used snapshots are dropped beyond a budget of floats. Every graph write
 * of a tenant drops the tenant's snapshots and bumps its version after the commit; a snapshot loaded under an older
 * version is not kept, so a reader racing a writer never caches stale rows. Thread-safe.
 */
final class VectorCache {
  /** Most floats kept in all snapshots together (128 MiB). */
  static final long BUDGET_FLOATS = 32L << 20;

  /**
   * The vectors of one scope's entities or relations, with the relations' event times (null for entities).
   *
   * @param ids       row ids
   * @param vectors   row vectors
   * @param norms     their L2 norms
   * @param validAt   relations' valid_at (entries may be null), or null for entities
   * @param invalidAt relations' invalid_at (entries may be null), or null for entities
   */
  record Snapshot(String[] ids, float[][] vectors, double[] norms, Instant[] validAt, Instant[] invalidAt) {
    long floats() {
      long n = 0;
      for (float[] v : vectors) {
        n += v.length;
      }
      return n + ids.length;
    }
  }

  private final Map<String, Long> versions = new HashMap<>();
  private final LinkedHashMap<String, Snapshot> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long floats;

  /** The tenant's current version; pass it to {@link #put}. */
  synchronized long version(String tenant) {
    return versions.getOrDefault(tenant, 0L);
  }

  synchronized Snapshot get(String key) {
    return entries.get(key);
  }

  /** Keeps a snapshot loaded under {@code version}, unless the tenant was written since. */
  synchronized void put(String tenant, String key, long version, Snapshot s) {
    long size = s.floats();
    if (version != version(tenant) || size > BUDGET_FLOATS) {
      return;
    }
    Snapshot old = entries.put(key, s);
    floats += size - (old == null ? 0 : old.floats());
    Iterator<Map.Entry<String, Snapshot>> it = entries.entrySet().iterator();
    while (floats > BUDGET_FLOATS && it.hasNext()) {
      Map.Entry<String, Snapshot> eldest = it.next();
      floats -= eldest.getValue().floats();
      it.remove();
    }
  }

  /** Drops the tenant's snapshots; called after every graph write of the tenant (committed or not). */
  synchronized void invalidate(String tenant) {
    versions.merge(tenant, 1L, Long::sum);
    String prefix = tenant + "\u0000";
    Iterator<Map.Entry<String, Snapshot>> it = entries.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, Snapshot> e = it.next();
      if (e.getKey().startsWith(prefix)) {
        floats -= e.getValue().floats();
        it.remove();
      }
    }
  }

  /** The key of a tenant's scope snapshot of one kind ("e" entities, "r" relations). */
  static String key(String tenant, String kind, String scopeKey) {
    return tenant + "\u0000" + kind + "\u0000" + scopeKey;
  }
}

package dev.engram.sqlite;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.spi.SizedLruMap;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Decoded graph vectors of recently searched scopes, so that repeated similarity searches of a
 * scope do not read and decode its rows again. Least recently used snapshots are dropped beyond a
 * budget of floats. Every graph write of a tenant bumps the tenant's version after the commit and
 * drops the snapshots it may have changed: those of the query scopes that contain a written row's
 * scope (all of the tenant's when the write does not say, as for entity deletions). A snapshot
 * loaded under an older version is not kept, so a reader racing a writer never caches stale rows.
 * Thread-safe.
 */
final class VectorCache {
  /** Most floats kept in all snapshots together (128 MiB). */
  static final long BUDGET_FLOATS = 32L << 20;

  /**
   * The vectors of one scope's entities or relations, with the relations' event times (null for
   * entities).
   *
   * @param scope the query scope it was loaded for
   * @param ids row ids
   * @param vectors row vectors
   * @param norms their L2 norms
   * @param validAt relations' valid_at (entries may be null), or null for entities
   * @param invalidAt relations' invalid_at (entries may be null), or null for entities
   */
  // Columns of primitive arrays, scanned by the brute-force search without boxing; never compared
  // by equals.
  @SuppressWarnings("ArrayRecordComponent")
  record Snapshot(
      Scope scope,
      String[] ids,
      float[][] vectors,
      double[] norms,
      Instant[] validAt,
      Instant[] invalidAt) {
    long floats() {
      long n = 0;
      for (float[] v : vectors) {
        n += v.length;
      }
      return n + ids.length;
    }
  }

  private final Map<String, Long> versions = new HashMap<>();
  private final SizedLruMap<String, Snapshot> entries =
      new SizedLruMap<>(BUDGET_FLOATS, Snapshot::floats);

  /** The tenant's current version; pass it to {@link #put}. */
  synchronized long version(String tenant) {
    return versions.getOrDefault(tenant, 0L);
  }

  synchronized Snapshot get(String key) {
    return entries.get(key).orElse(null);
  }

  /** Keeps a snapshot loaded under {@code version}, unless the tenant was written since. */
  synchronized void put(String tenant, String key, long version, Snapshot s) {
    if (version == version(tenant)) {
      entries.put(key, s);
    }
  }

  /**
   * Drops all the tenant's snapshots; called after a graph write of the tenant (committed or not).
   */
  synchronized void invalidate(String tenant) {
    invalidate(tenant, null);
  }

  /**
   * Drops the tenant's snapshots whose scope contains one of {@code written} (all of them if null);
   * called after a graph write of rows of these scopes (committed or not).
   */
  synchronized void invalidate(String tenant, Collection<Scope> written) {
    versions.merge(tenant, 1L, Long::sum);
    String prefix = tenant + "\u0000";
    entries.removeIf(
        (key, snapshot) ->
            key.startsWith(prefix)
                && (written == null
                    || written.stream()
                        .anyMatch(
                            w ->
                                snapshot
                                    .scope()
                                    .contains(
                                        w.userId().orElse(null),
                                        w.agentId().orElse(null),
                                        w.runId().orElse(null)))));
  }

  /** The key of a tenant's scope snapshot of one kind ("e" entities, "r" relations). */
  static String key(String tenant, String kind, String scopeKey) {
    return tenant + "\u0000" + kind + "\u0000" + scopeKey;
  }

  /**
   * The scopes a change writes, or null if it deletes entities or relations (whose scopes it does
   * not carry).
   */
  static Set<Scope> scopes(GraphChanges changes) {
    if (!changes.deletedEntities().isEmpty() || !changes.deletedRelations().isEmpty()) {
      return null;
    }
    Set<Scope> out = new HashSet<>();
    for (Entity e : changes.entities()) {
      out.add(e.scope());
    }
    for (Relation r : changes.relations()) {
      out.add(r.scope());
    }
    return out;
  }
}

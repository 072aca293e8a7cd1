package dev.engram.sqlite;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.SizedLruMap;
import dev.engram.spi.VectorMath;
import java.time.Instant;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What graph searches read again and again, kept decoded: the vectors of recently searched scopes
 * (snapshots, for the similarity scans) and recently read relations (rows, for the entity-centred
 * expansion and the similar relations' records, which read the same few hundred relations of a
 * scope query after query). Least recently used snapshots are dropped beyond a budget of floats,
 * least recently used relations beyond a budget of estimated bytes.
 *
 * <p>Every graph write of a tenant, once it has ended (committed or not), bumps the tenant's
 * version and drops what it may have changed: the snapshots of the query scopes that contain a
 * written row's scope (all of the tenant's when the write does not say, as for entity deletions),
 * and the relations it upserts or deletes, with those that touch a deleted entity. What was read
 * under an older version is not kept, so a reader racing a writer never caches stale rows, and once
 * a write has returned no reader is served what it replaced. Like {@link RecordCache}, it relies on
 * the store being the only writer of its file, as {@code EmbeddedStorage}'s lock makes it.
 * Thread-safe.
 */
final class GraphCache {
  /** Most floats kept in all snapshots together (128 MiB). */
  static final long BUDGET_FLOATS = 32L << 20;

  /**
   * The vectors of one scope's entities or relations, with the relations' event times and endpoints
   * (null times and an empty map for entities).
   *
   * @param scope the query scope it was loaded for
   * @param ids row ids
   * @param vectors row vectors
   * @param squares the sums of their squares ({@link VectorMath#sumOfSquares})
   * @param validAt relations' valid_at (entries may be null), or null for entities
   * @param invalidAt relations' invalid_at (entries may be null), or null for entities
   * @param rowsByEntity the rows of the relations that touch each entity (as source or target), in
   *     row order; empty for entities
   */
  // Columns of primitive arrays, scanned by the brute-force search without boxing; never compared
  // by equals.
  @SuppressWarnings("ArrayRecordComponent")
  record Snapshot(
      Scope scope,
      String[] ids,
      float[][] vectors,
      double[] squares,
      Instant[] validAt,
      Instant[] invalidAt,
      Map<String, int[]> rowsByEntity) {
    long floats() {
      long n = 0;
      for (float[] v : vectors) {
        n += v.length;
      }
      return n + ids.length * (rowsByEntity.isEmpty() ? 1L : 3L);
    }

    /**
     * True if {@code view} shows the row's relation ({@link TimeView#admits(Instant, Instant)}).
     * Entities' snapshots keep no times and are only asked with views that show every row.
     */
    boolean visible(int row, TimeView view) {
      return view.includeInvalidated() || view.admits(validAt[row], invalidAt[row]);
    }

    /**
     * The ids of the relations that touch one of {@code entityIds} and {@code view} shows, sorted.
     */
    List<String> relationIds(Collection<String> entityIds, TimeView view) {
      SortedSet<String> out = new TreeSet<>();
      rows(entityIds, view).stream().forEach(row -> out.add(ids[row]));
      return List.copyOf(out);
    }

    /** The rows of the relations that touch one of {@code entityIds} and {@code view} shows. */
    BitSet rows(Collection<String> entityIds, TimeView view) {
      BitSet out = new BitSet(ids.length);
      for (String entity : entityIds) {
        for (int row : rowsByEntity.getOrDefault(entity, NO_ROWS)) {
          if (visible(row, view)) {
            out.set(row);
          }
        }
      }
      return out;
    }
  }

  private static final int[] NO_ROWS = {};

  private record RowKey(String tenant, String id) {}

  private final Map<String, Long> versions = new HashMap<>();
  private final SizedLruMap<String, Snapshot> snapshots =
      new SizedLruMap<>(BUDGET_FLOATS, Snapshot::floats);
  private final SizedLruMap<RowKey, Relation> relations;

  /**
   * A cache that keeps at most {@code relationBudget} estimated bytes of relations (0 keeps none;
   * the store gives them the budget of its memories, {@link RecordCache}).
   */
  GraphCache(long relationBudget) {
    this.relations = new SizedLruMap<>(relationBudget, GraphCache::bytes);
  }

  /** The tenant's current version: read it before reading rows, and pass it to the put. */
  synchronized long version(String tenant) {
    return versions.getOrDefault(tenant, 0L);
  }

  synchronized Optional<Snapshot> snapshot(String key) {
    return snapshots.get(key);
  }

  /** Keeps a snapshot loaded under {@code version}, unless the tenant was written since. */
  synchronized void putSnapshot(String tenant, String key, long version, Snapshot s) {
    if (version == version(tenant)) {
      snapshots.put(key, s);
    }
  }

  /** The kept relations of {@code ids}, by id. */
  synchronized Map<String, Relation> relations(String tenant, Collection<String> ids) {
    Map<String, Relation> out = new HashMap<>();
    for (String id : ids) {
      relations.get(new RowKey(tenant, id)).ifPresent(r -> out.put(id, r));
    }
    return out;
  }

  /** Keeps relations read under {@code version}, unless the tenant was written since. */
  synchronized void putRelations(String tenant, long version, Collection<Relation> read) {
    if (version != version(tenant)) {
      return;
    }
    for (Relation r : read) {
      relations.put(new RowKey(tenant, r.id()), r);
    }
  }

  /** Drops all the tenant's snapshots and relations; called after a write of the whole tenant. */
  synchronized void invalidate(String tenant) {
    versions.merge(tenant, 1L, Long::sum);
    String prefix = tenant + "\u0000";
    snapshots.removeIf((key, snapshot) -> key.startsWith(prefix));
    relations.removeIf((key, r) -> key.tenant().equals(tenant));
  }

  /** Drops what {@code changes} may have changed; called after they were written (or not). */
  synchronized void invalidate(String tenant, GraphChanges changes) {
    versions.merge(tenant, 1L, Long::sum);
    Optional<Set<Scope>> written = scopes(changes);
    String prefix = tenant + "\u0000";
    snapshots.removeIf(
        (key, snapshot) ->
            key.startsWith(prefix)
                && written.map(w -> w.stream().anyMatch(s -> contains(snapshot, s))).orElse(true));
    for (Relation r : changes.relations()) {
      relations.remove(new RowKey(tenant, r.id()));
    }
    for (String id : changes.deletedRelations()) {
      relations.remove(new RowKey(tenant, id));
    }
    Set<String> deleted = changes.deletedEntities();
    if (!deleted.isEmpty()) {
      relations.removeIf(
          (key, r) ->
              key.tenant().equals(tenant)
                  && (deleted.contains(r.sourceId()) || deleted.contains(r.targetId())));
    }
  }

  /** The key of a tenant's scope snapshot of one kind ("e" entities, "r" relations). */
  static String key(String tenant, String kind, String scopeKey) {
    return tenant + "\u0000" + kind + "\u0000" + scopeKey;
  }

  private static boolean contains(Snapshot snapshot, Scope written) {
    return snapshot
        .scope()
        .contains(
            written.userId().orElse(null),
            written.agentId().orElse(null),
            written.runId().orElse(null));
  }

  /**
   * The scopes a change writes, or empty if it deletes entities or relations (whose scopes it does
   * not carry).
   */
  private static Optional<Set<Scope>> scopes(GraphChanges changes) {
    if (!changes.deletedEntities().isEmpty() || !changes.deletedRelations().isEmpty()) {
      return Optional.empty();
    }
    Set<Scope> out = new HashSet<>();
    for (Entity e : changes.entities()) {
      out.add(e.scope());
    }
    for (Relation r : changes.relations()) {
      out.add(r.scope());
    }
    return Optional.of(out);
  }

  /** A relation's estimated size: its vector, its strings (two bytes a char), its lists. */
  private static long bytes(Relation r) {
    long chars =
        r.id().length()
            + r.sourceId().length()
            + r.name().length()
            + r.targetId().length()
            + r.fact().length()
            + chars(r.sourceMessageIds())
            + chars(r.memoryIds());
    return 384 + 4L * r.factEmbeddingView().length + 2 * chars;
  }

  private static long chars(List<String> strings) {
    return strings.stream().mapToLong(s -> 48 + s.length()).sum();
  }
}

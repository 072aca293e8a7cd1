package dev.engram.sqlite;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.VectorMath;
import dev.engram.spi.sql.ColumnCodecs;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The graph memory in the SQLite record: tables {@code graph_entities} and {@code graph_relations}
 * of the same database as the memories, so that {@link SqliteMemoryStore#apply} writes an add's
 * graph changes in the same transaction as its memory changes. Obtain it with {@link
 * SqliteMemoryStore#graph()}.
 *
 * <p><b>Similarity</b> is exact: the embeddings of the scope's rows are read from SQLite and
 * compared with the query in Java (a scan; see docs/ARCHITECTURE.md "Graph memory" for its cost),
 * so small scopes never lose results to other scopes' rows. The decoded vectors of recently
 * searched scopes, and the relations recently read, are kept in a {@link GraphCache} until a graph
 * write of the tenant changes them: finding a scope's relations by entity then reads their ids
 * alone from SQLite. The relations of a memory are found through the trigger-maintained table
 * {@code graph_relation_memories} (see {@link Schema}) rather than by parsing every row's {@code
 * memory_ids}. An entity's {@link Entity#aliases() aliases} are the JSON column {@code
 * graph_entities.aliases}, which triggers mirror into {@code graph_entity_aliases} (one row per
 * alias with the entity's scope ids, indexed by tenant, alias and scope ids), so {@link
 * #entitiesByName} finds an entity by name or by alias with index seeks only; an upsert replaces
 * the alias rows and a delete removes them in the same statement. Thread-safe.
 */
public final class SqliteGraphStore implements GraphStore {
  /** Most values bound in one {@code IN (...)} list. */
  private static final int CHUNK = 400;

  private final Connections db;
  private final GraphCache cache;

  /** A store that keeps at most {@code relationCacheBytes} estimated bytes of relations read. */
  SqliteGraphStore(Connections db, long relationCacheBytes) {
    this.db = db;
    this.cache = new GraphCache(relationCacheBytes);
  }

  /** Drops cached rows the changes may affect; called after every write of graph rows. */
  void invalidate(String tenant, GraphChanges changes) {
    cache.invalidate(tenant, changes);
  }

  /** Drops all cached rows of the tenant. */
  void invalidate(String tenant) {
    cache.invalidate(tenant);
  }

  @Override
  public void apply(String tenant, GraphChanges changes) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(changes, "changes");
    if (changes.isEmpty()) {
      return;
    }
    try {
      db.write(
          "apply graph changes to tenant '" + tenant + "'",
          h -> {
            GraphRows.write(h, tenant, changes);
            return null;
          });
    } finally {
      invalidate(tenant, changes);
    }
  }

  @Override
  public List<Entity> entities(String tenant, Collection<String> ids) {
    Objects.requireNonNull(tenant, "tenant");
    return byIds(
        "entities",
        "SELECT " + GraphRows.ENTITY_COLUMNS + " FROM graph_entities e",
        tenant,
        ids,
        GraphRows::entities);
  }

  /** Reads a list of rows of a result set. */
  @FunctionalInterface
  private interface Rows<T> {
    List<T> read(ResultSet rs) throws SQLException;
  }

  /**
   * The rows of the tenant with these ids, {@code select} (a select of one table, aliased, without
   * a condition) asked for {@value #CHUNK} ids at a time.
   */
  private <T> List<T> byIds(
      String what, String select, String tenant, Collection<String> ids, Rows<T> rows) {
    return db.read(
        "read " + ids.size() + " " + what + " of tenant '" + tenant + "'",
        h -> {
          List<T> out = new ArrayList<>(ids.size());
          for (List<String> chunk : chunks(ids)) {
            try (PreparedStatement ps =
                h.connection()
                    .prepareStatement(
                        select
                            + " WHERE tenant = ? AND id IN ("
                            + GraphRows.marks(chunk.size())
                            + ")")) {
              ps.setString(1, tenant);
              GraphRows.bindAll(ps, 2, chunk);
              try (ResultSet rs = ps.executeQuery()) {
                out.addAll(rows.read(rs));
              }
            }
          }
          return out;
        });
  }

  @Override
  public List<Entity> entitiesByName(
      String tenant, Scope scope, Collection<String> normalizedNames) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    return db.read(
        "find entities by name in " + scope + " of tenant '" + tenant + "'",
        h -> {
          Map<String, Entity> out = new java.util.LinkedHashMap<>();
          for (List<String> chunk : chunks(normalizedNames)) {
            String in = GraphRows.marks(chunk.size());
            // By name through graph_entities_name, by alias through graph_entity_aliases' index:
            // two seeks, no OR.
            try (PreparedStatement ps =
                h.connection()
                    .prepareStatement(
                        "SELECT "
                            + GraphRows.ENTITY_COLUMNS
                            + " FROM graph_entities e INDEXED BY graph_entities_name WHERE tenant = ?"
                            + GraphRows.scopeMatch("e", scope)
                            + " AND norm_name IN ("
                            + in
                            + ")"
                            + " UNION ALL SELECT "
                            + GraphRows.ENTITY_COLUMNS
                            + " FROM graph_entities e WHERE e.tenant = ?"
                            + " AND e.id IN (SELECT a.entity_id FROM "
                            + Schema.ENTITY_ALIASES
                            + " a INDEXED BY "
                            + Schema.ENTITY_ALIASES_INDEX
                            + " WHERE a.tenant = ? AND a.alias IN ("
                            + in
                            + ")"
                            + GraphRows.scopeMatch("a", scope)
                            + ")")) {
              ps.setString(1, tenant);
              int i = GraphRows.bindScopeMatch(ps, 2, scope);
              i = GraphRows.bindAll(ps, i, chunk);
              ps.setString(i++, tenant);
              ps.setString(i++, tenant);
              i = GraphRows.bindAll(ps, i, chunk);
              GraphRows.bindScopeMatch(ps, i, scope);
              try (ResultSet rs = ps.executeQuery()) {
                for (Entity e : GraphRows.entities(rs)) {
                  out.putIfAbsent(e.id(), e);
                }
              }
            }
          }
          return List.copyOf(out.values());
        });
  }

  @Override
  public List<ScoredEntity> similarEntities(String tenant, Scope scope, float[] vector, int k) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    if (k < 1) {
      return List.of();
    }
    List<Scored> top = topK(snapshot(tenant, scope, "e"), vector, k, TimeView.ALL);
    Map<String, Entity> byId = new HashMap<>();
    for (Entity e : entities(tenant, top.stream().map(s -> s.id).toList())) {
      byId.put(e.id(), e);
    }
    List<ScoredEntity> out = new ArrayList<>(top.size());
    for (Scored s : top) {
      Entity e = byId.get(s.id);
      if (e != null) {
        out.add(new ScoredEntity(e, s.score));
      }
    }
    return out;
  }

  @Override
  public List<Relation> relationsOf(
      String tenant, Scope scope, Collection<String> entityIds, TimeView view) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(view, "view");
    if (entityIds.isEmpty()) {
      return List.of();
    }
    long version = cache.version(tenant);
    Optional<GraphCache.Snapshot> held = cache.snapshot(GraphCache.key(tenant, "r", scope.key()));
    List<String> ids =
        held.isPresent()
            ? held.get().relationIds(entityIds, view)
            : relationIds(tenant, scope, entityIds, view);
    Map<String, Relation> byId = relations(tenant, version, ids);
    return ids.stream().map(byId::get).filter(Objects::nonNull).toList();
  }

  /**
   * From the scope's snapshot (loaded if not held, as the graph search's similarity list that
   * follows needs it too): the cosines computed on its vectors and sums of squares, and only the
   * nearest relations' records read.
   */
  @Override
  public List<Relation> nearestRelationsOf(
      String tenant,
      Scope scope,
      Collection<String> entityIds,
      TimeView view,
      float[] vector,
      int limit) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(view, "view");
    if (limit < 1 || entityIds.isEmpty()) {
      return List.of();
    }
    long version = cache.version(tenant);
    GraphCache.Snapshot s = snapshot(tenant, scope, "r");
    int[] rows = s.rows(entityIds, view).stream().toArray();
    double[] cosines = new double[rows.length];
    VectorMath.cosines(
        s.vectors(),
        s.squares(),
        rows,
        rows.length,
        vector,
        VectorMath.sumOfSquares(vector),
        cosines);
    List<String> nearest =
        best(s, rows, rows.length, cosines, limit).stream().map(Scored::id).toList();
    Map<String, Relation> byId = relations(tenant, version, nearest);
    return nearest.stream().map(byId::get).filter(Objects::nonNull).toList();
  }

  /**
   * The ids of the relations of the scope that touch one of {@code entityIds} and {@code view}
   * shows, sorted, read from SQLite through the source and target indexes.
   */
  private List<String> relationIds(
      String tenant, Scope scope, Collection<String> entityIds, TimeView view) {
    return db.read(
        "find relations in " + scope + " of tenant '" + tenant + "'",
        h -> {
          SortedSet<String> out = new TreeSet<>();
          for (List<String> chunk : chunks(entityIds)) {
            String in = GraphRows.marks(chunk.size());
            String filters = GraphRows.scopeMatch("r", scope) + GraphRows.viewMatch(view);
            // Two indexed lookups (by source, by target) instead of an OR the planner would
            // answer with a scan.
            try (PreparedStatement ps =
                h.connection()
                    .prepareStatement(
                        "SELECT r.id FROM graph_relations r INDEXED BY graph_relations_source"
                            + " WHERE r.tenant = ? AND r.source_id IN ("
                            + in
                            + ")"
                            + filters
                            + " UNION ALL SELECT r.id FROM graph_relations r INDEXED BY"
                            + " graph_relations_target WHERE r.tenant = ? AND r.target_id IN ("
                            + in
                            + ")"
                            + filters)) {
              int i = 1;
              for (int branch = 0; branch < 2; branch++) {
                ps.setString(i++, tenant);
                i = GraphRows.bindAll(ps, i, chunk);
                i = GraphRows.bindScopeMatch(ps, i, scope);
                i = GraphRows.bindView(ps, i, view);
              }
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  out.add(rs.getString(1));
                }
              }
            }
          }
          return List.copyOf(out);
        });
  }

  /**
   * The relations of {@code ids}, by id: those kept, and the others read by id and kept unless the
   * tenant was written since {@code version} (read before the ids were found). An id deleted in
   * between is missing.
   */
  private Map<String, Relation> relations(String tenant, long version, List<String> ids) {
    Map<String, Relation> out = cache.relations(tenant, ids);
    List<String> unread = ids.stream().filter(id -> !out.containsKey(id)).toList();
    if (unread.isEmpty()) {
      return out;
    }
    List<Relation> read =
        byIds(
            "relations",
            "SELECT " + GraphRows.RELATION_COLUMNS + " FROM graph_relations r",
            tenant,
            unread,
            GraphRows::relations);
    cache.putRelations(tenant, version, read);
    read.forEach(r -> out.put(r.id(), r));
    return out;
  }

  /**
   * Finds the relations through {@code graph_relation_memories} (see {@link Schema}), an index seek
   * per id.
   */
  @Override
  public List<Relation> relationsFromMemories(String tenant, Collection<String> memoryIds) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(memoryIds, "memoryIds");
    if (memoryIds.isEmpty()) {
      return List.of();
    }
    return db.read(
        "read the relations of " + memoryIds.size() + " memories of tenant '" + tenant + "'",
        h -> {
          Map<String, Relation> out = new java.util.TreeMap<>();
          for (List<String> chunk : chunks(memoryIds)) {
            try (PreparedStatement ps =
                h.connection()
                    .prepareStatement(
                        "SELECT "
                            + GraphRows.RELATION_COLUMNS
                            + " FROM graph_relations r WHERE r.tenant = ? AND r.id IN (SELECT m.relation_id FROM "
                            + Schema.RELATION_MEMORIES
                            + " m WHERE m.tenant = ? AND m.memory_id IN ("
                            + GraphRows.marks(chunk.size())
                            + "))")) {
              ps.setString(1, tenant);
              ps.setString(2, tenant);
              GraphRows.bindAll(ps, 3, chunk);
              try (ResultSet rs = ps.executeQuery()) {
                for (Relation r : GraphRows.relations(rs)) {
                  out.put(r.id(), r);
                }
              }
            }
          }
          return List.copyOf(out.values());
        });
  }

  @Override
  public List<ScoredRelation> similarRelations(
      String tenant, Scope scope, float[] vector, int k, TimeView view) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(view, "view");
    if (k < 1) {
      return List.of();
    }
    long version = cache.version(tenant);
    List<Scored> top = topK(snapshot(tenant, scope, "r"), vector, k, view);
    Map<String, Relation> byId = relations(tenant, version, top.stream().map(Scored::id).toList());
    List<ScoredRelation> out = new ArrayList<>(top.size());
    for (Scored s : top) {
      Relation r = byId.get(s.id);
      if (r != null && view.admits(r)) {
        out.add(new ScoredRelation(r, s.score));
      }
    }
    return out;
  }

  @Override
  public int deleteScope(String tenant, Scope scope) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    try {
      return deleteScopeRows(tenant, scope);
    } finally {
      // Rows of scopes inside the deleted one go; so drop every cached scope that overlaps it:
      // simply all of them.
      cache.invalidate(tenant);
    }
  }

  private int deleteScopeRows(String tenant, Scope scope) {
    return db.write(
        "delete the graph of " + scope + " in tenant '" + tenant + "'",
        h -> {
          try (PreparedStatement ps =
              h.connection()
                  .prepareStatement(
                      "DELETE FROM graph_relations AS r WHERE"
                          + " r.tenant = ?"
                          + GraphRows.scopeMatch("r", scope))) {
            ps.setString(1, tenant);
            GraphRows.bindScopeMatch(ps, 2, scope);
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              h.connection()
                  .prepareStatement(
                      "DELETE FROM graph_entities AS e WHERE"
                          + " e.tenant = ?"
                          + GraphRows.scopeMatch("e", scope))) {
            ps.setString(1, tenant);
            GraphRows.bindScopeMatch(ps, 2, scope);
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public void reset(String tenant) {
    Objects.requireNonNull(tenant, "tenant");
    try {
      db.write(
          "reset the graph of tenant '" + tenant + "'",
          h -> {
            deleteTenant(h, tenant);
            return null;
          });
    } finally {
      cache.invalidate(tenant);
    }
  }

  /** Deletes a tenant's graph rows in the caller's transaction. */
  static void deleteTenant(Handle h, String tenant) throws SQLException {
    for (String table : List.of("graph_relations", "graph_entities")) {
      PreparedStatement ps = h.cached("DELETE FROM " + table + " WHERE tenant = ?");
      ps.setString(1, tenant);
      ps.executeUpdate();
    }
  }

  /** An id with its score. */
  private record Scored(String id, double score) {}

  private static final Comparator<Scored> BEST_FIRST =
      Comparator.comparingDouble((Scored s) -> -s.score).thenComparing(Scored::id);

  /**
   * The decoded vectors of a scope's entities ("e") or relations ("r"), from the cache or read
   * through the scope index.
   */
  private GraphCache.Snapshot snapshot(String tenant, Scope scope, String kind) {
    String key = GraphCache.key(tenant, kind, scope.key());
    Optional<GraphCache.Snapshot> cached = cache.snapshot(key);
    if (cached.isPresent()) {
      return cached.get();
    }
    long version = cache.version(tenant);
    boolean relations = kind.equals("r");
    String sql =
        relations
            ? "SELECT r.id, r.embedding, r.valid_s, r.valid_ns, r.invalid_s, r.invalid_ns,"
                + " r.source_id, r.target_id FROM graph_relations r WHERE r.tenant = ?"
                + GraphRows.scopeMatch("r", scope)
            : "SELECT e.id, e.embedding FROM graph_entities e WHERE e.tenant = ?"
                + GraphRows.scopeMatch("e", scope);
    GraphCache.Snapshot loaded =
        db.read(
            "read the vectors of " + scope + " in tenant '" + tenant + "'",
            h -> {
              PreparedStatement ps = h.cached(sql);
              ps.setString(1, tenant);
              GraphRows.bindScopeMatch(ps, 2, scope);
              List<String> ids = new ArrayList<>();
              List<float[]> vectors = new ArrayList<>();
              List<Instant> valid = new ArrayList<>();
              List<Instant> invalid = new ArrayList<>();
              Map<String, List<Integer>> touching = new HashMap<>();
              try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                  int row = ids.size();
                  ids.add(rs.getString(1));
                  vectors.add(Codecs.embedding(rs.getBytes(2)));
                  if (relations) {
                    valid.add(ColumnCodecs.instant(rs, 3));
                    invalid.add(ColumnCodecs.instant(rs, 5));
                    // (a relation from an entity to itself is listed twice: relationIds sets)
                    touching.computeIfAbsent(rs.getString(7), e -> new ArrayList<>()).add(row);
                    touching.computeIfAbsent(rs.getString(8), e -> new ArrayList<>()).add(row);
                  }
                }
              }
              double[] squares = new double[vectors.size()];
              for (int i = 0; i < squares.length; i++) {
                squares[i] = VectorMath.sumOfSquares(vectors.get(i));
              }
              Map<String, int[]> rowsByEntity = new HashMap<>();
              touching.forEach(
                  (entity, rows) ->
                      rowsByEntity.put(
                          entity, rows.stream().mapToInt(Integer::intValue).toArray()));
              return new GraphCache.Snapshot(
                  scope,
                  ids.toArray(String[]::new),
                  vectors.toArray(float[][]::new),
                  squares,
                  relations ? valid.toArray(Instant[]::new) : null,
                  relations ? invalid.toArray(Instant[]::new) : null,
                  rowsByEntity);
            });
    cache.putSnapshot(tenant, key, version, loaded);
    return loaded;
  }

  /**
   * The k rows of a snapshot (of relations: those the view shows) most similar by cosine ({@link
   * VectorMath#cosine(float[], float[])}, four rows at a time), best first, ties by id.
   */
  private static List<Scored> topK(GraphCache.Snapshot s, float[] query, int k, TimeView view) {
    int[] rows = visibleRows(s, view);
    double[] scores = new double[rows.length];
    VectorMath.cosines(
        s.vectors(), s.squares(), rows, rows.length, query, VectorMath.sumOfSquares(query), scores);
    return best(s, rows, rows.length, scores, k);
  }

  /** The rows of the snapshot the view shows, in row order. */
  private static int[] visibleRows(GraphCache.Snapshot s, TimeView view) {
    int[] rows = new int[s.ids().length];
    int count = 0;
    for (int r = 0; r < rows.length; r++) {
      if (s.visible(r, view)) {
        rows[count++] = r;
      }
    }
    return count == rows.length ? rows : Arrays.copyOf(rows, count);
  }

  /** The {@code limit} best of {@code rows[0..count)} by {@code scores}, best first, ties by id. */
  private static List<Scored> best(
      GraphCache.Snapshot s, int[] rows, int count, double[] scores, int limit) {
    Best best = new Best(limit);
    best.offer(s, rows, count, scores);
    return best.sorted();
  }

  /** The best rows offered, at most {@code limit}; ties by id. */
  private static final class Best {
    private final PriorityQueue<Scored> worstFirst = new PriorityQueue<>(BEST_FIRST.reversed());
    private final int limit;

    Best(int limit) {
      this.limit = limit;
    }

    /** Offers {@code rows[0..count)} of the snapshot with their {@code scores}. */
    void offer(GraphCache.Snapshot s, int[] rows, int count, double[] scores) {
      for (int i = 0; i < count; i++) {
        if (worstFirst.size() == limit && scores[i] < worstFirst.peek().score) {
          continue; // cannot enter: no need to compare ids
        }
        Scored scored = new Scored(s.ids()[rows[i]], scores[i]);
        if (worstFirst.size() < limit) {
          worstFirst.add(scored);
        } else if (BEST_FIRST.compare(scored, worstFirst.peek()) < 0) {
          worstFirst.poll();
          worstFirst.add(scored);
        }
      }
    }

    /** What was kept, best first. */
    List<Scored> sorted() {
      List<Scored> out = new ArrayList<>(worstFirst);
      out.sort(BEST_FIRST);
      return out;
    }
  }

  /** Rows scored together against every vector of a {@link #similarRelationsEach}: 384 KiB. */
  private static final int ROWS_PER_BLOCK = 256;

  /**
   * One pass over the scope's snapshot for all the vectors: the visible rows taken a block at a
   * time, each block scored against every vector while it sits in the processor's cache (one search
   * per vector would read the whole scope from memory each time). Scores and ties are {@link
   * #similarRelations}'s.
   */
  @Override
  public List<List<SearchIndex.Candidate>> similarRelationsEach(
      String tenant, Scope scope, List<float[]> vectors, int k, TimeView view) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(view, "view");
    if (k < 1) {
      return vectors.stream().map(v -> List.<SearchIndex.Candidate>of()).toList();
    }
    GraphCache.Snapshot s = snapshot(tenant, scope, "r");
    int[] visible = visibleRows(s, view);
    List<Best> best = new ArrayList<>(vectors.size());
    double[] squares = new double[vectors.size()];
    for (int t = 0; t < vectors.size(); t++) {
      best.add(new Best(k));
      squares[t] = VectorMath.sumOfSquares(vectors.get(t));
    }
    double[] scores = new double[ROWS_PER_BLOCK];
    int[] block = new int[ROWS_PER_BLOCK];
    for (int from = 0; from < visible.length; from += ROWS_PER_BLOCK) {
      int count = Math.min(ROWS_PER_BLOCK, visible.length - from);
      System.arraycopy(visible, from, block, 0, count);
      for (int t = 0; t < vectors.size(); t++) {
        VectorMath.cosines(
            s.vectors(), s.squares(), block, count, vectors.get(t), squares[t], scores);
        best.get(t).offer(s, block, count, scores);
      }
    }
    return best.stream()
        .map(b -> b.sorted().stream().map(x -> new SearchIndex.Candidate(x.id, x.score)).toList())
        .toList();
  }

  private static List<List<String>> chunks(Collection<String> values) {
    List<String> all = new ArrayList<>(new LinkedHashSet<>(values));
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < all.size(); i += CHUNK) {
      out.add(all.subList(i, Math.min(all.size(), i + CHUNK)));
    }
    return out;
  }
}

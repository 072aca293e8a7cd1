package dev.engram.sqlite;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.sql.ColumnCodecs;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The graph tables ({@code graph_entities} with its aliases, {@code graph_relations}): SQL
 * fragments, writing {@link GraphChanges} inside the caller's transaction, and reading rows back.
 * Scope ids are columns, matched as {@link Scope#contains} does; times are (second, nano) pairs
 * compared as row values.
 */
final class GraphRows {
  static final String ENTITY_COLUMNS =
      "id, name, norm_name, type, embedding, mentions, created_s, created_ns,"
          + " updated_s, updated_ns, user_id, agent_id, run_id, aliases";
  static final String RELATION_COLUMNS =
      "id, source_id, name, target_id, fact, embedding, valid_s, valid_ns,"
          + " invalid_s, invalid_ns, created_s, created_ns, expired_s, expired_ns, source_ids, memory_ids,"
          + " user_id, agent_id, run_id";

  private static final String UPSERT_ENTITY =
      "INSERT OR REPLACE INTO graph_entities (tenant, "
          + ENTITY_COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String UPSERT_RELATION =
      "INSERT OR REPLACE INTO graph_relations (tenant, "
          + RELATION_COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String DELETE_EDGES =
      "DELETE FROM graph_relations WHERE tenant = ?" + " AND (source_id = ? OR target_id = ?)";
  private static final String DELETE_ENTITY =
      "DELETE FROM graph_entities WHERE tenant = ? AND id = ?";
  private static final String DELETE_RELATION =
      "DELETE FROM graph_relations WHERE tenant = ? AND id = ?";

  private GraphRows() {}

  /**
   * Writes the changes in the caller's transaction: entity upserts, relation upserts, relation
   * deletions, entity deletions.
   */
  static void write(Handle db, String tenant, GraphChanges changes) throws SQLException {
    for (Entity e : changes.entities()) {
      PreparedStatement ps = db.cached(UPSERT_ENTITY);
      ps.setString(1, tenant);
      ps.setString(2, e.id());
      ps.setString(3, e.name());
      ps.setString(4, e.normalizedName());
      ps.setString(5, e.type());
      ps.setBytes(6, Codecs.embedding(e.embeddingView()));
      ps.setInt(7, e.mentions());
      ColumnCodecs.bindInstant(ps, 8, e.createdAt());
      ColumnCodecs.bindInstant(ps, 10, e.updatedAt());
      bindScope(ps, 12, e.scope());
      // The triggers on graph_entities replace the entity's rows of graph_entity_aliases (see
      // Schema).
      ps.setString(15, ColumnCodecs.json(e.aliases()));
      ps.executeUpdate();
    }
    for (Relation r : changes.relations()) {
      PreparedStatement ps = db.cached(UPSERT_RELATION);
      ps.setString(1, tenant);
      ps.setString(2, r.id());
      ps.setString(3, r.sourceId());
      ps.setString(4, r.name());
      ps.setString(5, r.targetId());
      ps.setString(6, r.fact());
      ps.setBytes(7, Codecs.embedding(r.factEmbeddingView()));
      ColumnCodecs.bindInstant(ps, 8, r.validAt());
      ColumnCodecs.bindInstant(ps, 10, r.invalidAt());
      ColumnCodecs.bindInstant(ps, 12, r.createdAt());
      ColumnCodecs.bindInstant(ps, 14, r.expiredAt());
      ps.setString(16, ColumnCodecs.json(r.sourceMessageIds()));
      ps.setString(17, ColumnCodecs.json(r.memoryIds()));
      bindScope(ps, 18, r.scope());
      ps.executeUpdate();
    }
    for (String id : changes.deletedRelations()) {
      PreparedStatement ps = db.cached(DELETE_RELATION);
      ps.setString(1, tenant);
      ps.setString(2, id);
      ps.executeUpdate();
    }
    for (String id : changes.deletedEntities()) {
      PreparedStatement edges = db.cached(DELETE_EDGES);
      edges.setString(1, tenant);
      edges.setString(2, id);
      edges.setString(3, id);
      edges.executeUpdate();
      PreparedStatement entity = db.cached(DELETE_ENTITY);
      entity.setString(1, tenant);
      entity.setString(2, id);
      entity.executeUpdate();
    }
  }

  private static void bindScope(PreparedStatement ps, int index, Scope s) throws SQLException {
    ps.setString(index, s.userId().orElse(null));
    ps.setString(index + 1, s.agentId().orElse(null));
    ps.setString(index + 2, s.runId().orElse(null));
  }

  /**
   * {@code AND} conditions matching a scope, for table alias {@code alias}; bind with {@link
   * #bindScopeMatch}.
   */
  static String scopeMatch(String alias, Scope s) {
    StringBuilder sql = new StringBuilder();
    s.userId().ifPresent(x -> sql.append(" AND ").append(alias).append(".user_id = ?"));
    s.agentId().ifPresent(x -> sql.append(" AND ").append(alias).append(".agent_id = ?"));
    s.runId().ifPresent(x -> sql.append(" AND ").append(alias).append(".run_id = ?"));
    return sql.toString();
  }

  /** Binds the parameters of {@link #scopeMatch}; returns the next free index. */
  static int bindScopeMatch(PreparedStatement ps, int index, Scope s) throws SQLException {
    for (var id : List.of(s.userId(), s.agentId(), s.runId())) {
      if (id.isPresent()) {
        ps.setString(index++, id.get());
      }
    }
    return index;
  }

  /**
   * {@code AND} conditions of a resolved time view on alias {@code r}; bind with {@link #bindView}.
   */
  static String viewMatch(TimeView view) {
    if (view.includeInvalidated()) {
      return "";
    }
    return " AND (r.valid_s IS NULL OR (r.valid_s, r.valid_ns) <= (?, ?))"
        + " AND (r.invalid_s IS NULL OR (r.invalid_s, r.invalid_ns) > (?, ?))";
  }

  static int bindView(PreparedStatement ps, int index, TimeView view) throws SQLException {
    if (view.includeInvalidated()) {
      return index;
    }
    Instant t = view.resolvedInstant();
    ColumnCodecs.bindInstant(ps, index, t);
    ColumnCodecs.bindInstant(ps, index + 2, t);
    return index + 4;
  }

  /** {@code ?, ?, ...} with {@code n} marks. */
  static String marks(int n) {
    return String.join(", ", java.util.Collections.nCopies(n, "?"));
  }

  static int bindAll(PreparedStatement ps, int index, Collection<String> values)
      throws SQLException {
    for (String v : values) {
      ps.setString(index++, v);
    }
    return index;
  }

  /** Reads an entity from {@link #ENTITY_COLUMNS} starting at column 1. */
  static Entity entity(ResultSet rs) throws SQLException {
    return new Entity(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        Codecs.embedding(rs.getBytes(5)),
        rs.getInt(6),
        ColumnCodecs.instant(rs, 7),
        ColumnCodecs.instant(rs, 9),
        Scope.of(rs.getString(11), rs.getString(12), rs.getString(13)),
        ColumnCodecs.strings(rs.getString(14)));
  }

  /** Reads a relation from {@link #RELATION_COLUMNS} starting at column 1. */
  static Relation relation(ResultSet rs) throws SQLException {
    return new Relation(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        Codecs.embedding(rs.getBytes(6)),
        ColumnCodecs.instant(rs, 7),
        ColumnCodecs.instant(rs, 9),
        ColumnCodecs.instant(rs, 11),
        ColumnCodecs.instant(rs, 13),
        ColumnCodecs.strings(rs.getString(15)),
        ColumnCodecs.strings(rs.getString(16)),
        Scope.of(rs.getString(17), rs.getString(18), rs.getString(19)));
  }

  static List<Entity> entities(ResultSet rs) throws SQLException {
    List<Entity> out = new ArrayList<>();
    while (rs.next()) {
      out.add(entity(rs));
    }
    return out;
  }

  static List<Relation> relations(ResultSet rs) throws SQLException {
    List<Relation> out = new ArrayList<>();
    while (rs.next()) {
      out.add(relation(rs));
    }
    return out;
  }
}

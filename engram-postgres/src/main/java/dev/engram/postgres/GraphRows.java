package dev.engram.postgres;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.sql.ColumnCodecs;
import dev.engram.spi.sql.Sql;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The graph tables ({@code graph_entities}, {@code graph_relations}): writing {@link GraphChanges}
 * inside the caller's transaction, SQL fragments for scopes and time views, and reading rows back.
 * Aliases and memory ids are {@code text[]} columns with GIN indexes.
 */
final class GraphRows {
  static final String ENTITY_COLUMNS =
      "e.id, e.name, e.norm_name, e.type, e.embedding, e.mentions, e.created_s,"
          + " e.created_ns, e.updated_s, e.updated_ns, e.user_id, e.agent_id, e.run_id, e.aliases";
  static final String RELATION_COLUMNS =
      "r.id, r.source_id, r.name, r.target_id, r.fact, r.embedding, r.valid_s,"
          + " r.valid_ns, r.invalid_s, r.invalid_ns, r.created_s, r.created_ns, r.expired_s, r.expired_ns,"
          + " r.source_ids, r.memory_ids, r.user_id, r.agent_id, r.run_id";

  private static final String UPSERT_ENTITY =
      "INSERT INTO graph_entities (name, norm_name, type, embedding,"
          + " mentions, created_s, created_ns, updated_s, updated_ns, user_id, agent_id, run_id, aliases, tenant, id)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, id) DO UPDATE SET"
          + " name = EXCLUDED.name, norm_name = EXCLUDED.norm_name, type = EXCLUDED.type,"
          + " embedding = EXCLUDED.embedding, mentions = EXCLUDED.mentions, created_s = EXCLUDED.created_s,"
          + " created_ns = EXCLUDED.created_ns, updated_s = EXCLUDED.updated_s, updated_ns = EXCLUDED.updated_ns,"
          + " user_id = EXCLUDED.user_id, agent_id = EXCLUDED.agent_id, run_id = EXCLUDED.run_id,"
          + " aliases = EXCLUDED.aliases";
  private static final String UPSERT_RELATION =
      "INSERT INTO graph_relations (source_id, name, target_id, fact,"
          + " embedding, valid_s, valid_ns, invalid_s, invalid_ns, created_s, created_ns, expired_s, expired_ns,"
          + " source_ids, memory_ids, user_id, agent_id, run_id, tenant, id)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tenant, id) DO UPDATE SET"
          + " source_id = EXCLUDED.source_id, name = EXCLUDED.name, target_id = EXCLUDED.target_id,"
          + " fact = EXCLUDED.fact, embedding = EXCLUDED.embedding, valid_s = EXCLUDED.valid_s,"
          + " valid_ns = EXCLUDED.valid_ns, invalid_s = EXCLUDED.invalid_s, invalid_ns = EXCLUDED.invalid_ns,"
          + " created_s = EXCLUDED.created_s, created_ns = EXCLUDED.created_ns, expired_s = EXCLUDED.expired_s,"
          + " expired_ns = EXCLUDED.expired_ns, source_ids = EXCLUDED.source_ids, memory_ids = EXCLUDED.memory_ids,"
          + " user_id = EXCLUDED.user_id, agent_id = EXCLUDED.agent_id, run_id = EXCLUDED.run_id";

  private GraphRows() {}

  /** Writes the changes in the caller's transaction, in the order {@link GraphChanges} defines. */
  static void write(Connection c, String tenant, GraphChanges changes) throws SQLException {
    if (changes.isEmpty()) {
      return;
    }
    try (PreparedStatement ps = c.prepareStatement(UPSERT_ENTITY)) {
      for (Entity e : changes.entities()) {
        int i = 1;
        ps.setString(i++, e.name());
        ps.setString(i++, e.normalizedName());
        ps.setString(i++, e.type());
        ps.setArray(i++, c.createArrayOf("float4", Float4Arrays.boxed(e.embeddingView())));
        ps.setInt(i++, e.mentions());
        i = ColumnCodecs.bindInstant(ps, i, e.createdAt());
        i = ColumnCodecs.bindInstant(ps, i, e.updatedAt());
        i = bindScope(ps, i, e.scope());
        ps.setArray(i++, c.createArrayOf("text", e.aliases().toArray()));
        ps.setString(i++, tenant);
        ps.setString(i, e.id());
        ps.addBatch();
      }
      ps.executeBatch();
    }
    try (PreparedStatement ps = c.prepareStatement(UPSERT_RELATION)) {
      for (Relation r : changes.relations()) {
        int i = 1;
        ps.setString(i++, r.sourceId());
        ps.setString(i++, r.name());
        ps.setString(i++, r.targetId());
        ps.setString(i++, r.fact());
        ps.setArray(i++, c.createArrayOf("float4", Float4Arrays.boxed(r.factEmbeddingView())));
        i = ColumnCodecs.bindInstant(ps, i, r.validAt());
        i = ColumnCodecs.bindInstant(ps, i, r.invalidAt());
        i = ColumnCodecs.bindInstant(ps, i, r.createdAt());
        i = ColumnCodecs.bindInstant(ps, i, r.expiredAt());
        ps.setArray(i++, c.createArrayOf("text", r.sourceMessageIds().toArray()));
        ps.setArray(i++, c.createArrayOf("text", r.memoryIds().toArray()));
        i = bindScope(ps, i, r.scope());
        ps.setString(i++, tenant);
        ps.setString(i, r.id());
        ps.addBatch();
      }
      ps.executeBatch();
    }
    if (!changes.deletedRelations().isEmpty()) {
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM graph_relations WHERE tenant = ? AND id = ANY (?)")) {
        ps.setString(1, tenant);
        ps.setArray(2, c.createArrayOf("text", changes.deletedRelations().toArray()));
        ps.executeUpdate();
      }
    }
    if (!changes.deletedEntities().isEmpty()) {
      Array ids = c.createArrayOf("text", changes.deletedEntities().toArray());
      try (PreparedStatement edges =
              c.prepareStatement(
                  "DELETE FROM graph_relations WHERE tenant = ?"
                      + " AND (source_id = ANY (?) OR target_id = ANY (?))");
          PreparedStatement entities =
              c.prepareStatement("DELETE FROM graph_entities WHERE tenant = ? AND id = ANY (?)")) {
        edges.setString(1, tenant);
        edges.setArray(2, ids);
        edges.setArray(3, ids);
        edges.executeUpdate();
        entities.setString(1, tenant);
        entities.setArray(2, ids);
        entities.executeUpdate();
      }
    }
  }

  /** Deletes every entity and relation of a tenant in the caller's transaction. */
  static void deleteTenant(Connection c, String tenant) throws SQLException {
    for (String table : List.of("graph_relations", "graph_entities")) {
      try (PreparedStatement ps =
          c.prepareStatement("DELETE FROM " + table + " WHERE tenant = ?")) {
        ps.setString(1, tenant);
        ps.executeUpdate();
      }
    }
  }

  private static int bindScope(PreparedStatement ps, int index, Scope s) throws SQLException {
    ps.setString(index, s.userId().orElse(null));
    ps.setString(index + 1, s.agentId().orElse(null));
    ps.setString(index + 2, s.runId().orElse(null));
    return index + 3;
  }

  /** Appends the conditions of a scope on alias {@code alias}. */
  static void scope(Sql sql, String alias, Scope s) {
    s.userId().ifPresent(x -> sql.append(" AND " + alias + ".user_id = ").param(x));
    s.agentId().ifPresent(x -> sql.append(" AND " + alias + ".agent_id = ").param(x));
    s.runId().ifPresent(x -> sql.append(" AND " + alias + ".run_id = ").param(x));
  }

  /** Appends the conditions of a resolved time view on alias {@code r}. */
  static void view(Sql sql, TimeView view) {
    if (view.includeInvalidated()) {
      return;
    }
    Instant t = view.resolvedInstant();
    sql.append(" AND (r.valid_s IS NULL OR (r.valid_s, r.valid_ns) <= (")
        .param(t.getEpochSecond())
        .append("::bigint, ")
        .param(t.getNano())
        .append("::integer))")
        .append(" AND (r.invalid_s IS NULL OR (r.invalid_s, r.invalid_ns) > (")
        .param(t.getEpochSecond())
        .append("::bigint, ")
        .param(t.getNano())
        .append("::integer))");
  }

  /** Reads an entity from {@link #ENTITY_COLUMNS} starting at column 1. */
  static Entity entity(ResultSet rs) throws SQLException {
    return new Entity(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        MemoryRows.floats(rs.getArray(5)),
        rs.getInt(6),
        ColumnCodecs.instant(rs, 7),
        ColumnCodecs.instant(rs, 9),
        Scope.of(rs.getString(11), rs.getString(12), rs.getString(13)),
        strings(rs.getArray(14)));
  }

  /** Reads a relation from {@link #RELATION_COLUMNS} starting at column 1. */
  static Relation relation(ResultSet rs) throws SQLException {
    return new Relation(
        rs.getString(1),
        rs.getString(2),
        rs.getString(3),
        rs.getString(4),
        rs.getString(5),
        MemoryRows.floats(rs.getArray(6)),
        ColumnCodecs.instant(rs, 7),
        ColumnCodecs.instant(rs, 9),
        ColumnCodecs.instant(rs, 11),
        ColumnCodecs.instant(rs, 13),
        strings(rs.getArray(15)),
        strings(rs.getArray(16)),
        Scope.of(rs.getString(17), rs.getString(18), rs.getString(19)));
  }

  private static List<String> strings(Array array) throws SQLException {
    return new ArrayList<>(Arrays.asList((String[]) array.getArray()));
  }
}

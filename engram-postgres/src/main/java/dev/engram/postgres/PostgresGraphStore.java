package dev.engram.postgres;

import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.sql.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The graph memory in PostgreSQL, in the same schema as the memories: the memory store writes an
 * add's graph changes in the same transaction as its memories ({@link
 * PostgresStorage#graphCommitsWithRecords()}). Similarity is exact ({@code engram_cosine} over the
 * rows of the scope, best first, ties by id), never a global index filtered afterwards, so small
 * scopes lose nothing. No cache: every read sees the latest commit of any process.
 */
final class PostgresGraphStore implements GraphStore {
  private final Database db;

  PostgresGraphStore(Database db) {
    this.db = db;
  }

  @Override
  public void apply(String tenant, GraphChanges changes) {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(changes, "changes");
    if (changes.isEmpty()) {
      return;
    }
    db.write(
        "apply graph changes to tenant '" + tenant + "'",
        c -> {
          GraphRows.write(c, tenant, changes);
          return null;
        });
  }

  @Override
  public List<Entity> entities(String tenant, Collection<String> ids) {
    if (ids.isEmpty()) {
      return List.of();
    }
    Sql sql =
        new Sql()
            .append(
                "SELECT " + GraphRows.ENTITY_COLUMNS + " FROM graph_entities e WHERE e.tenant = ")
            .param(tenant)
            .append(" AND e.id = ANY (?::text[])");
    return db.read("read " + ids.size() + " entities", c -> entityRows(c, sql, ids));
  }

  @Override
  public List<Entity> entitiesByName(
      String tenant, Scope scope, Collection<String> normalizedNames) {
    if (normalizedNames.isEmpty()) {
      return List.of();
    }
    Sql sql =
        new Sql()
            .append(
                "SELECT " + GraphRows.ENTITY_COLUMNS + " FROM graph_entities e WHERE e.tenant = ")
            .param(tenant);
    GraphRows.scope(sql, "e", scope);
    sql.append(" AND (e.norm_name = ANY (?::text[]) OR e.aliases && ?::text[])");
    return db.read(
        "find entities by name",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.text())) {
            int next = sql.bind(ps, 1);
            ps.setArray(next, c.createArrayOf("text", normalizedNames.toArray()));
            ps.setArray(next + 1, c.createArrayOf("text", normalizedNames.toArray()));
            return entities(ps);
          }
        });
  }

  @Override
  public List<ScoredEntity> similarEntities(String tenant, Scope scope, float[] vector, int k) {
    if (k < 1) {
      return List.of();
    }
    Sql sql =
        new Sql()
            .append("SELECT " + GraphRows.ENTITY_COLUMNS + ", engram_cosine(e.embedding, ")
            .param(Float4Arrays.parameter(vector))
            .append("::real[]) AS score FROM graph_entities e WHERE e.tenant = ")
            .param(tenant);
    GraphRows.scope(sql, "e", scope);
    sql.append(" ORDER BY score DESC, e.id LIMIT ").param(k);
    return db.read(
        "find similar entities",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.text())) {
            sql.bind(ps, 1);
            List<ScoredEntity> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(new ScoredEntity(GraphRows.entity(rs), rs.getDouble(15)));
              }
            }
            return out;
          }
        });
  }

  @Override
  public List<Relation> relationsOf(
      String tenant, Scope scope, Collection<String> entityIds, TimeView view) {
    if (entityIds.isEmpty()) {
      return List.of();
    }
    Sql sql =
        new Sql()
            .append(
                "SELECT "
                    + GraphRows.RELATION_COLUMNS
                    + " FROM graph_relations r WHERE r.tenant = ")
            .param(tenant);
    GraphRows.scope(sql, "r", scope);
    GraphRows.view(sql, view);
    sql.append(
        " AND (r.source_id = ANY (?::text[]) OR r.target_id = ANY (?::text[])) ORDER BY r.id");
    return db.read(
        "read relations of entities",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.text())) {
            int next = sql.bind(ps, 1);
            ps.setArray(next, c.createArrayOf("text", entityIds.toArray()));
            ps.setArray(next + 1, c.createArrayOf("text", entityIds.toArray()));
            return relations(ps);
          }
        });
  }

  @Override
  public List<ScoredRelation> similarRelations(
      String tenant, Scope scope, float[] vector, int k, TimeView view) {
    if (k < 1) {
      return List.of();
    }
    Sql sql =
        new Sql()
            .append("SELECT " + GraphRows.RELATION_COLUMNS + ", engram_cosine(r.embedding, ")
            .param(Float4Arrays.parameter(vector))
            .append("::real[]) AS score FROM graph_relations r WHERE r.tenant = ")
            .param(tenant);
    GraphRows.scope(sql, "r", scope);
    GraphRows.view(sql, view);
    sql.append(" ORDER BY score DESC, r.id LIMIT ").param(k);
    return db.read(
        "find similar relations",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.text())) {
            sql.bind(ps, 1);
            List<ScoredRelation> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(new ScoredRelation(GraphRows.relation(rs), rs.getDouble(20)));
              }
            }
            return out;
          }
        });
  }

  @Override
  public List<Relation> relationsFromMemories(String tenant, Collection<String> memoryIds) {
    if (memoryIds.isEmpty()) {
      return List.of();
    }
    Sql sql =
        new Sql()
            .append(
                "SELECT "
                    + GraphRows.RELATION_COLUMNS
                    + " FROM graph_relations r WHERE r.tenant = ")
            .param(tenant)
            .append(" AND r.memory_ids && ?::text[] ORDER BY r.id");
    return db.read(
        "read relations of memories",
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql.text())) {
            int next = sql.bind(ps, 1);
            ps.setArray(next, c.createArrayOf("text", memoryIds.toArray()));
            return relations(ps);
          }
        });
  }

  @Override
  public int deleteScope(String tenant, Scope scope) {
    return db.write(
        "delete the graph of " + scope,
        c -> {
          Sql relations =
              new Sql().append("DELETE FROM graph_relations r WHERE r.tenant = ").param(tenant);
          GraphRows.scope(relations, "r", scope);
          Sql entities =
              new Sql().append("DELETE FROM graph_entities e WHERE e.tenant = ").param(tenant);
          GraphRows.scope(entities, "e", scope);
          try (PreparedStatement r = c.prepareStatement(relations.text());
              PreparedStatement e = c.prepareStatement(entities.text())) {
            relations.bind(r, 1);
            r.executeUpdate();
            entities.bind(e, 1);
            return e.executeUpdate();
          }
        });
  }

  @Override
  public void reset(String tenant) {
    db.write(
        "reset the graph of tenant '" + tenant + "'",
        c -> {
          GraphRows.deleteTenant(c, tenant);
          return null;
        });
  }

  private static List<Entity> entityRows(Connection c, Sql sql, Collection<String> ids)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.text())) {
      int next = sql.bind(ps, 1);
      ps.setArray(next, c.createArrayOf("text", ids.toArray()));
      return entities(ps);
    }
  }

  private static List<Entity> entities(PreparedStatement ps) throws SQLException {
    List<Entity> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(GraphRows.entity(rs));
      }
    }
    return out;
  }

  private static List<Relation> relations(PreparedStatement ps) throws SQLException {
    List<Relation> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(GraphRows.relation(rs));
      }
    }
    return out;
  }
}

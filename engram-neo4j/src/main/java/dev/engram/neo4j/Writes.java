package dev.engram.neo4j;

import dev.engram.StorageException;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.neo4j.driver.TransactionContext;

/**
 * The statements of one {@link GraphChanges}, run inside the caller's write transaction in the
 * documented order: entity upserts, relation upserts, relation deletions, entity deletions. An
 * exception thrown here rolls the whole transaction back.
 */
final class Writes {
  /**
   * {@code SET e = row.props} replaces every property (the null scope ids and aliases of the row
   * remove stale ones, so an upsert replaces the alias list); a usable embedding is then stored as
   * float32 (see {@link Rows}).
   */
  private static final String UPSERT_ENTITIES =
      "UNWIND $rows AS row"
          + " MERGE (e:Entity {tenant: $tenant, id: row.props.id}) SET e = row.props"
          + " WITH e, row WHERE row.vector IS NOT NULL"
          + " CALL db.create.setNodeVectorProperty(e, 'embedding', row.vector)";

  /**
   * An upsert replaces the whole relationship, endpoints included, so the old one (if any) is
   * deleted and a new one created between the named endpoints.
   */
  private static final String DELETE_RELATIONS =
      "UNWIND $ids AS id"
          + " MATCH ()-[r:RELATES]->() WHERE r.tenant = $tenant AND r.id = id DELETE r";

  private static final String CREATE_RELATIONS =
      "UNWIND $rows AS row"
          + " MATCH (s:Entity {tenant: $tenant, id: row.source})"
          + " MATCH (d:Entity {tenant: $tenant, id: row.target})"
          + " CREATE (s)-[r:RELATES]->(d) SET r = row.props RETURN row.props.id AS id";

  private static final String SET_RELATION_VECTORS =
      "UNWIND $rows AS row WITH row WHERE row.vector IS NOT NULL"
          + " MATCH ()-[r:RELATES]->() WHERE r.tenant = $tenant AND r.id = row.props.id"
          + " CALL db.create.setRelationshipVectorProperty(r, 'fact_embedding', row.vector)";

  private static final String DELETE_ENTITIES =
      "UNWIND $ids AS id" + " MATCH (e:Entity {tenant: $tenant, id: id}) DETACH DELETE e";

  private Writes() {}

  static void apply(TransactionContext tx, String tenant, GraphChanges changes) {
    if (!changes.entities().isEmpty()) {
      List<Map<String, Object>> rows = new ArrayList<>(changes.entities().size());
      for (Entity e : changes.entities()) {
        rows.add(Rows.entity(tenant, e));
      }
      tx.run(UPSERT_ENTITIES, Map.of("tenant", tenant, "rows", rows)).consume();
    }
    if (!changes.relations().isEmpty()) {
      upsertRelations(tx, tenant, changes.relations());
    }
    if (!changes.deletedRelations().isEmpty()) {
      tx.run(
              DELETE_RELATIONS,
              Map.of("tenant", tenant, "ids", List.copyOf(changes.deletedRelations())))
          .consume();
    }
    if (!changes.deletedEntities().isEmpty()) {
      tx.run(
              DELETE_ENTITIES,
              Map.of("tenant", tenant, "ids", List.copyOf(changes.deletedEntities())))
          .consume();
    }
  }

  private static void upsertRelations(
      TransactionContext tx, String tenant, List<Relation> relations) {
    // The last upsert of an id wins, as if they were applied one by one.
    Map<String, Relation> byId = new LinkedHashMap<>();
    for (Relation r : relations) {
      byId.remove(r.id());
      byId.put(r.id(), r);
    }
    List<Map<String, Object>> rows = new ArrayList<>(byId.size());
    for (Relation r : byId.values()) {
      rows.add(Rows.relation(tenant, r));
    }
    tx.run(DELETE_RELATIONS, Map.of("tenant", tenant, "ids", List.copyOf(byId.keySet()))).consume();
    Set<String> created = new HashSet<>();
    tx.run(CREATE_RELATIONS, Map.of("tenant", tenant, "rows", rows))
        .forEachRemaining(rec -> created.add(rec.get("id").asString()));
    if (created.size() < byId.size()) {
      for (Relation r : byId.values()) {
        if (!created.contains(r.id())) {
          throw new StorageException(
              "neo4j: relation "
                  + r.id()
                  + " of tenant "
                  + tenant
                  + " names endpoints "
                  + r.sourceId()
                  + " -> "
                  + r.targetId()
                  + ", and at least one of them does not exist; nothing was"
                  + " written");
        }
      }
    }
    tx.run(SET_RELATION_VECTORS, Map.of("tenant", tenant, "rows", rows)).consume();
  }
}

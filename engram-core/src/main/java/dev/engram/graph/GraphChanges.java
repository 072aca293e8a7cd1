package dev.engram.graph;

import java.util.List;
import java.util.Set;

/**
 * Everything one operation writes to the graph of one tenant, applied atomically in this order: entity upserts,
 * relation upserts, entity deletions. An upsert replaces the whole row with the same id (so an invalidation or a
 * provenance merge is an upsert of the changed relation); it never moves a row to another scope (a row's scope is
 * fixed when it is first written, and stores may rely on that). Deleting an entity also deletes every relation that
 * touches it, whatever its validity.
 *
 * @param entities        entities to insert or replace
 * @param relations       relations to insert or replace; their endpoints exist after the entity upserts
 * @param deletedEntities ids of entities to delete with their relations (unknown ids are ignored)
 */
public record GraphChanges(List<Entity> entities, List<Relation> relations, Set<String> deletedEntities) {
  /** No change. */
  public static final GraphChanges NONE = new GraphChanges(List.of(), List.of(), Set.of());

  public GraphChanges {
    entities = List.copyOf(entities);
    relations = List.copyOf(relations);
    deletedEntities = Set.copyOf(deletedEntities);
  }

  /** Upserts only. */
  public static GraphChanges upserts(List<Entity> entities, List<Relation> relations) {
    return new GraphChanges(entities, relations, Set.of());
  }

  /** Deletions only. */
  public static GraphChanges deleting(Set<String> entityIds) {
    return new GraphChanges(List.of(), List.of(), entityIds);
  }

  public boolean isEmpty() {
    return entities.isEmpty() && relations.isEmpty() && deletedEntities.isEmpty();
  }
}

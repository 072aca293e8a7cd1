package dev.engram.graph;

import java.util.List;
import java.util.Set;

/**
 * Everything one operation writes to the graph of one tenant, applied atomically in this order:
 * entity upserts, relation upserts, relation deletions, entity deletions. An upsert replaces the
 * whole row with the same id (so an invalidation or a provenance merge is an upsert of the changed
 * relation); it never moves a row to another scope (a row's scope is fixed when it is first
 * written, and stores may rely on that). A relation deletion removes the row physically (only for
 * forgetting: a relation whose every memory was deleted by the user; conflicts invalidate instead).
 * Deleting an entity also deletes every relation that touches it, whatever its validity.
 *
 * @param entities entities to insert or replace
 * @param relations relations to insert or replace; their endpoints exist after the entity upserts
 * @param deletedRelations ids of relations to delete (unknown ids are ignored; applied after the
 *     upserts, so a deletion wins over an upsert of the same id)
 * @param deletedEntities ids of entities to delete with their relations (unknown ids are ignored)
 */
public record GraphChanges(
    List<Entity> entities,
    List<Relation> relations,
    Set<String> deletedRelations,
    Set<String> deletedEntities) {
  /** No change. */
  public static final GraphChanges NONE =
      new GraphChanges(List.of(), List.of(), Set.of(), Set.of());

  public GraphChanges {
    entities = List.copyOf(entities);
    relations = List.copyOf(relations);
    deletedRelations = Set.copyOf(deletedRelations);
    deletedEntities = Set.copyOf(deletedEntities);
  }

  /** Upserts and entity deletions, no relation deletions. */
  public GraphChanges(
      List<Entity> entities, List<Relation> relations, Set<String> deletedEntities) {
    this(entities, relations, Set.of(), deletedEntities);
  }

  /** Upserts only. */
  public static GraphChanges upserts(List<Entity> entities, List<Relation> relations) {
    return new GraphChanges(entities, relations, Set.of(), Set.of());
  }

  /** Entity deletions only. */
  public static GraphChanges deleting(Set<String> entityIds) {
    return new GraphChanges(List.of(), List.of(), Set.of(), entityIds);
  }

  public boolean isEmpty() {
    return entities.isEmpty()
        && relations.isEmpty()
        && deletedRelations.isEmpty()
        && deletedEntities.isEmpty();
  }
}

package dev.engram;

import java.util.List;

/**
 * What one add did to the graph memory (mem0's {@code relations} of an add response): the relations
 * it added and the relations it invalidated. An invalidated relation stays in the graph with {@code
 * invalidAt} set (answerable with an {@code as_of} view); it is not deleted. A statement that only
 * repeated a known relation appears in neither list (it added provenance).
 *
 * @param added new relations, in the order they were written (one stated as already ended has
 *     {@code invalidAt} set)
 * @param invalidated existing relations the add ended, in their new version
 */
public record RelationChanges(List<GraphRelation> added, List<GraphRelation> invalidated) {
  /** No change. */
  public static final RelationChanges NONE = new RelationChanges(List.of(), List.of());

  public RelationChanges {
    added = List.copyOf(added);
    invalidated = List.copyOf(invalidated);
  }
}

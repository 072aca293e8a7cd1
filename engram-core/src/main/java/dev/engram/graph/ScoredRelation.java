package dev.engram.graph;

import java.util.Objects;

/**
 * A relation with its cosine similarity to a query vector.
 *
 * @param relation the relation
 * @param score cosine similarity in [-1, 1]
 */
public record ScoredRelation(Relation relation, double score) {
  public ScoredRelation {
    Objects.requireNonNull(relation, "relation");
  }
}

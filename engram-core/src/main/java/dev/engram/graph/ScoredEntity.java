package dev.engram.graph;

import java.util.Objects;

/**
 * An entity with its cosine similarity to a query vector.
 *
 * @param entity the entity
 * @param score cosine similarity in [-1, 1]
 */
public record ScoredEntity(Entity entity, double score) {
  public ScoredEntity {
    Objects.requireNonNull(entity, "entity");
  }
}

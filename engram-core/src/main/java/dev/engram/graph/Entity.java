package dev.engram.graph;

import dev.engram.Scope;
import java.time.Instant;
import java.util.Objects;

/**
 * An entity node of the memory graph: a person, place, organisation, event, object or concept named in the
 * conversation. Entities belong to one tenant (given to every store call) and one scope: the scope of the add that
 * created them. The embedding array is copied in and out.
 *
 * @param id             unique within the tenant
 * @param name           the display name as first seen (for example {@code Alice Smith})
 * @param normalizedName the lookup key, {@link Names#normalize(String)} of the name
 * @param type           an open type label in lower case ({@code person}, {@code place}, ...); {@code entity} if
 *                       unknown
 * @param embedding      the embedding of the name (L2-normalised)
 * @param mentions       how many adds mentioned it (at least 1)
 * @param createdAt      when Engram first saw it
 * @param updatedAt      when it was last mentioned
 * @param scope          the scope it belongs to
 */
public record Entity(String id, String name, String normalizedName, String type, float[] embedding, int mentions,
                     Instant createdAt, Instant updatedAt, Scope scope) {
  public Entity {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(normalizedName, "normalizedName");
    Objects.requireNonNull(type, "type");
    embedding = Objects.requireNonNull(embedding, "embedding").clone();
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(scope, "scope");
    if (mentions < 1) {
      throw new IllegalArgumentException("mentions of entity " + id + " must be positive, got " + mentions);
    }
  }

  @Override
  public float[] embedding() {
    return embedding.clone();
  }

  /** The embedding without a copy; callers must not modify it. */
  public float[] embeddingView() {
    return embedding;
  }

  /** This entity mentioned once more at {@code at}. */
  public Entity mentioned(Instant at) {
    return new Entity(id, name, normalizedName, type, embedding, mentions + 1, createdAt, at, scope);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Entity e && id.equals(e.id) && name.equals(e.name) && normalizedName.equals(e.normalizedName)
        && type.equals(e.type) && java.util.Arrays.equals(embedding, e.embedding) && mentions == e.mentions
        && createdAt.equals(e.createdAt) && updatedAt.equals(e.updatedAt) && scope.equals(e.scope);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, normalizedName, mentions, updatedAt);
  }

  @Override
  public String toString() {
    return "Entity[" + id + " '" + name + "' " + type + " x" + mentions + " " + scope.key() + "]";
  }
}

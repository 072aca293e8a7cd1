package dev.engram.graph;

import dev.engram.Scope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * An entity node of the memory graph: a person, place, organisation, event, object or concept named
 * in the conversation. Entities belong to one tenant (given to every store call) and one scope: the
 * scope of the add that created them. The embedding array is copied in and out.
 *
 * @param id unique within the tenant
 * @param name the display name as first seen (for example {@code Alice Smith})
 * @param normalizedName the lookup key, {@link Names#normalize(String)} of the name
 * @param type an open type label in lower case ({@code person}, {@code place}, ...); {@code entity}
 *     if unknown
 * @param embedding the embedding of the name (L2-normalised)
 * @param mentions how many adds mentioned it (at least 1)
 * @param createdAt when Engram first saw it
 * @param updatedAt when it was last mentioned
 * @param scope the scope it belongs to
 * @param aliases other normalised names the entity is known by (for example {@code melanie smith}
 *     after the model matched "Melanie Smith" to "Melanie Rose Smith"), in the order they were
 *     learned; {@link dev.engram.spi.GraphStore#entitiesByName} finds the entity under each of
 *     them. Duplicates and the {@code normalizedName} itself are dropped; no element may be blank
 */
// Vectors are float[] on purpose (no boxing on the search paths); equals and hashCode compare them
// by content.
@SuppressWarnings("ArrayRecordComponent")
public record Entity(
    String id,
    String name,
    String normalizedName,
    String type,
    float[] embedding,
    int mentions,
    Instant createdAt,
    Instant updatedAt,
    Scope scope,
    List<String> aliases) {
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
      throw new IllegalArgumentException(
          "mentions of entity " + id + " must be positive, got " + mentions);
    }
    aliases = canonicalAliases(id, normalizedName, Objects.requireNonNull(aliases, "aliases"));
  }

  /** An entity without aliases. */
  public Entity(
      String id,
      String name,
      String normalizedName,
      String type,
      float[] embedding,
      int mentions,
      Instant createdAt,
      Instant updatedAt,
      Scope scope) {
    this(
        id,
        name,
        normalizedName,
        type,
        embedding,
        mentions,
        createdAt,
        updatedAt,
        scope,
        List.of());
  }

  private static List<String> canonicalAliases(
      String id, String normalizedName, List<String> aliases) {
    if (aliases.isEmpty()) {
      return List.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (String a : aliases) {
      Objects.requireNonNull(a, "alias");
      if (a.isBlank()) {
        throw new IllegalArgumentException("alias of entity " + id + " must not be blank");
      }
      if (!a.equals(normalizedName)) {
        out.add(a);
      }
    }
    return List.copyOf(out);
  }

  @Override
  public float[] embedding() {
    return embedding.clone();
  }

  /** The embedding without a copy; callers must not modify it. */
  public float[] embeddingView() {
    return embedding;
  }

  /** Whether {@code key} is this entity's normalised name or one of its aliases. */
  public boolean knownAs(String key) {
    return normalizedName.equals(key) || aliases.contains(key);
  }

  /** This entity mentioned once more at {@code at}. */
  public Entity mentioned(Instant at) {
    return new Entity(
        id, name, normalizedName, type, embedding, mentions + 1, createdAt, at, scope, aliases);
  }

  /**
   * This entity also known by the normalised name {@code alias}, updated at {@code at}; this entity
   * itself if it is already known by that name (its normalised name or an existing alias).
   */
  public Entity withAlias(String alias, Instant at) {
    Objects.requireNonNull(alias, "alias");
    Objects.requireNonNull(at, "at");
    if (knownAs(alias)) {
      return this;
    }
    List<String> more = new ArrayList<>(aliases);
    more.add(alias);
    return new Entity(
        id, name, normalizedName, type, embedding, mentions, createdAt, at, scope, more);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Entity e
        && id.equals(e.id)
        && name.equals(e.name)
        && normalizedName.equals(e.normalizedName)
        && type.equals(e.type)
        && java.util.Arrays.equals(embedding, e.embedding)
        && mentions == e.mentions
        && createdAt.equals(e.createdAt)
        && updatedAt.equals(e.updatedAt)
        && scope.equals(e.scope)
        && aliases.equals(e.aliases);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, normalizedName, mentions, updatedAt);
  }

  @Override
  public String toString() {
    return "Entity["
        + id
        + " '"
        + name
        + "' "
        + type
        + " x"
        + mentions
        + " "
        + scope.key()
        + (aliases.isEmpty() ? "" : " aka " + aliases)
        + "]";
  }
}

package dev.engram.graph;

import dev.engram.Scope;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A directed relation edge between two entities of the same tenant and scope, with both time axes:
 * event time ({@code validAt}, {@code invalidAt}: when the fact held in the world) and system time
 * ({@code createdAt}, {@code expiredAt}: when Engram learned it and when Engram retired it). A
 * contradicted relation is never deleted: it gets an {@code invalidAt} and an {@code expiredAt}.
 * The embedding array is copied in and out.
 *
 * @param id unique within the tenant
 * @param sourceId the source entity's id
 * @param name the relation name in snake_case ({@code lives_in}, {@code works_at})
 * @param targetId the target entity's id
 * @param fact the fact as a sentence ({@code Alice lives in Beijing})
 * @param factEmbedding the embedding of the fact (L2-normalised)
 * @param validAt since when it holds, or null if unknown (treated as "always")
 * @param invalidAt until when it held (exclusive), or null while it holds
 * @param createdAt when Engram learned it
 * @param expiredAt when Engram retired it, or null
 * @param sourceMessageIds ids of the messages that stated it (provenance)
 * @param memoryIds ids of the memories extracted from the same messages (provenance)
 * @param scope the scope it belongs to
 */
// Vectors are float[] on purpose (no boxing on the search paths); equals and hashCode compare them
// by content.
@SuppressWarnings("ArrayRecordComponent")
public record Relation(
    String id,
    String sourceId,
    String name,
    String targetId,
    String fact,
    float[] factEmbedding,
    Instant validAt,
    Instant invalidAt,
    Instant createdAt,
    Instant expiredAt,
    List<String> sourceMessageIds,
    List<String> memoryIds,
    Scope scope) {
  public Relation {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sourceId, "sourceId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(targetId, "targetId");
    Objects.requireNonNull(fact, "fact");
    factEmbedding = Objects.requireNonNull(factEmbedding, "factEmbedding").clone();
    Objects.requireNonNull(createdAt, "createdAt");
    sourceMessageIds = List.copyOf(sourceMessageIds);
    memoryIds = List.copyOf(memoryIds);
    Objects.requireNonNull(scope, "scope");
  }

  @Override
  public float[] factEmbedding() {
    return factEmbedding.clone();
  }

  /** The embedding without a copy; callers must not modify it. */
  public float[] factEmbeddingView() {
    return factEmbedding;
  }

  /** True if {@code invalidAt} is set: the relation no longer holds (from that instant on). */
  public boolean invalidated() {
    return invalidAt != null;
  }

  /** This relation, invalid from {@code at} and retired by Engram at {@code now}. */
  public Relation invalidate(Instant at, Instant now) {
    return new Relation(
        id,
        sourceId,
        name,
        targetId,
        fact,
        factEmbedding,
        validAt,
        at,
        createdAt,
        now,
        sourceMessageIds,
        memoryIds,
        scope);
  }

  /** This relation with more provenance (ids already present are not repeated). */
  public Relation withProvenance(List<String> messageIds, List<String> newMemoryIds) {
    return new Relation(
        id,
        sourceId,
        name,
        targetId,
        fact,
        factEmbedding,
        validAt,
        invalidAt,
        createdAt,
        expiredAt,
        union(sourceMessageIds, messageIds),
        union(memoryIds, newMemoryIds),
        scope);
  }

  private static List<String> union(List<String> a, List<String> b) {
    java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }

  /** True if it touches the entity with this id. */
  public boolean touches(String entityId) {
    return sourceId.equals(entityId) || targetId.equals(entityId);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Relation r
        && id.equals(r.id)
        && sourceId.equals(r.sourceId)
        && name.equals(r.name)
        && targetId.equals(r.targetId)
        && fact.equals(r.fact)
        && Arrays.equals(factEmbedding, r.factEmbedding)
        && Objects.equals(validAt, r.validAt)
        && Objects.equals(invalidAt, r.invalidAt)
        && createdAt.equals(r.createdAt)
        && Objects.equals(expiredAt, r.expiredAt)
        && sourceMessageIds.equals(r.sourceMessageIds)
        && memoryIds.equals(r.memoryIds)
        && scope.equals(r.scope);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, name, validAt, invalidAt);
  }

  @Override
  public String toString() {
    return "Relation["
        + id
        + " "
        + sourceId
        + " -"
        + name
        + "-> "
        + targetId
        + " '"
        + fact
        + "' valid "
        + validAt
        + " .. "
        + invalidAt
        + "]";
  }
}

package dev.engram;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A relation of the graph memory as the API returns it, in mem0's shape ({@code source}, {@code
 * relationship}, {@code destination}) plus the fact sentence and both time axes.
 *
 * @param id the relation's id
 * @param source the source entity's name
 * @param relationship the relation name in snake_case ({@code lives_in})
 * @param destination the target entity's name
 * @param fact the fact as a sentence
 * @param validAt since when it holds, or null if unknown
 * @param invalidAt until when it held, or null while it holds
 * @param createdAt when Engram learned it
 * @param expiredAt when Engram retired it, or null
 * @param score its retrieval score in [0, 1] in search results (1 in listings)
 * @param sourceIds provenance: the ids of the messages that stated it ({@code Message.sourceId}),
 *     oldest first: those of the message or memory it was extracted from (every message of its add
 *     only when the extractor could not tell, or for relations written before Engram tracked it per
 *     message)
 * @param memoryIds provenance: the ids of the memories it was extracted with (the memory or message
 *     it came from when the extractor says so, else every memory of the add); a memory may since
 *     have been updated or deleted
 */
public record GraphRelation(
    String id,
    String source,
    String relationship,
    String destination,
    String fact,
    Instant validAt,
    Instant invalidAt,
    Instant createdAt,
    Instant expiredAt,
    double score,
    List<String> sourceIds,
    List<String> memoryIds) {
  public GraphRelation {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(relationship, "relationship");
    Objects.requireNonNull(destination, "destination");
    Objects.requireNonNull(fact, "fact");
    Objects.requireNonNull(createdAt, "createdAt");
    sourceIds = List.copyOf(sourceIds);
    memoryIds = List.copyOf(memoryIds);
  }

  /** A relation without provenance (empty {@code sourceIds} and {@code memoryIds}). */
  public GraphRelation(
      String id,
      String source,
      String relationship,
      String destination,
      String fact,
      Instant validAt,
      Instant invalidAt,
      Instant createdAt,
      Instant expiredAt,
      double score) {
    this(
        id,
        source,
        relationship,
        destination,
        fact,
        validAt,
        invalidAt,
        createdAt,
        expiredAt,
        score,
        List.of(),
        List.of());
  }

  /** True if the relation has ended ({@code invalidAt} set). */
  public boolean invalidated() {
    return invalidAt != null;
  }
}

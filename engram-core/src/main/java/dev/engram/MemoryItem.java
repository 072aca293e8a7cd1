package dev.engram;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One stored memory: a short natural-language fact and where it came from. Immutable.
 *
 * @param id UUID
 * @param text the memory text
 * @param hash md5 of the UTF-8 text, 32 lower-case hex characters
 * @param metadata caller metadata (JSON values: String, Number, Boolean, List, Map); never null
 * @param userId owner user id, or null
 * @param agentId owner agent id, or null
 * @param runId owner run id, or null
 * @param actorId the speaker's name where known, or null
 * @param role the role of the source message where known, or null
 * @param createdAt when Engram stored it (UTC)
 * @param updatedAt when Engram last changed it (UTC)
 * @param eventTime when the source conversation took place, or null if unknown
 * @param sourceIds ids of the source messages it came from (provenance); never null
 * @param expirationDate the first day on which it is expired, or null if it never expires
 */
public record MemoryItem(
    String id,
    String text,
    String hash,
    Map<String, Object> metadata,
    String userId,
    String agentId,
    String runId,
    String actorId,
    Role role,
    Instant createdAt,
    Instant updatedAt,
    Instant eventTime,
    List<String> sourceIds,
    LocalDate expirationDate) {

  /**
   * The metadata key of a passage's start: a message longer than {@link
   * Engram.Builder#passageTokens} is stored as one memory per passage ({@code infer=false}, or no
   * extractor), each with the message's provenance ({@link #sourceIds}, actor, role, event time)
   * and, in its metadata, the {@code char} offsets of its text in the message's content: {@code
   * content.substring(passage_start, passage_end)} is the memory's text. A whole message has
   * neither key.
   */
  public static final String PASSAGE_START = "passage_start";

  /** The metadata key of a passage's end (exclusive): {@link #PASSAGE_START}. */
  public static final String PASSAGE_END = "passage_end";

  /**
   * The metadata key of how many passages a passage's message was split into ({@link
   * #PASSAGE_START}), which the ranking step {@value Ranking#PASSAGES} reads.
   */
  public static final String PASSAGE_COUNT = "passage_count";

  /**
   * The metadata key of how many facts one add drew from a fact's source messages (written when 2
   * or more), which the ranking step {@value Ranking#FACTS} reads.
   */
  public static final String FACT_COUNT = "fact_count";

  public MemoryItem {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(hash, "hash");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    metadata = JsonValues.immutableObject(metadata == null ? Map.of() : metadata);
    sourceIds = sourceIds == null ? List.of() : List.copyOf(sourceIds);
  }

  /** True if this memory has an expiration date on or before {@code today}. */
  public boolean isExpired(LocalDate today) {
    return expirationDate != null && !expirationDate.isAfter(today);
  }

  /** The scope made of this memory's own ids. */
  public Scope scope() {
    return Scope.of(userId, agentId, runId);
  }

  /** A copy with new text (and its hash), metadata and expiration, stamped {@code now}. */
  public MemoryItem withContent(
      String newText, Map<String, Object> newMetadata, LocalDate newExpiration, Instant now) {
    return new MemoryItem(
        id,
        newText,
        Hashes.md5(newText),
        newMetadata,
        userId,
        agentId,
        runId,
        actorId,
        role,
        createdAt,
        now,
        eventTime,
        sourceIds,
        newExpiration);
  }
}

package dev.engram;

import java.util.Objects;

/**
 * One search result.
 *
 * @param memory  the memory
 * @param score   final score in [0,1]; higher is better
 * @param details per-signal scores, or null unless the request asked to explain
 */
public record SearchHit(MemoryItem memory, double score, ScoreDetails details) {
  public SearchHit {
    Objects.requireNonNull(memory, "memory");
  }
}

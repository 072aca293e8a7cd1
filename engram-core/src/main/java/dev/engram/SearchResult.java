package dev.engram;

import java.util.List;

/**
 * Search results, best first.
 *
 * @param hits the hits
 */
public record SearchResult(List<SearchHit> hits) {
  public SearchResult {
    hits = List.copyOf(hits);
  }
}

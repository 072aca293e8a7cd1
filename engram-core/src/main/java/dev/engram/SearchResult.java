package dev.engram;

import java.util.List;

/**
 * Search results, best first: memories and, with the graph memory on, relations of the graph.
 *
 * @param hits the memory hits
 * @param relations the graph relations found for the query, best first (empty without a graph
 *     memory)
 */
public record SearchResult(List<SearchHit> hits, List<GraphRelation> relations) {
  public SearchResult {
    hits = List.copyOf(hits);
    relations = List.copyOf(relations);
  }

  /** Memory hits without relations. */
  public SearchResult(List<SearchHit> hits) {
    this(hits, List.of());
  }
}

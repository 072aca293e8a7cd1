package dev.engram.lucene;

import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.util.Bits;

/**
 * A k-nearest-neighbour query that scores every memory its restriction admits, exactly, in a
 * segment where it admits at most {@link #EXACT_LIMIT} documents, and walks the HNSW graph only
 * beyond that. A scope (a user's, an agent's or a run's memories) usually holds a few thousand
 * memories at most: scoring them all costs about what the graph walk for a large k costs, gives the
 * true nearest ones, and does not depend on how the segments' graphs happened to be built. (Lucene
 * itself scores exactly only when the restriction admits no more than k documents.)
 */
final class ScopedKnnQuery extends KnnFloatVectorQuery {
  /**
   * Scoring this many 384-dimension vectors takes about 0.5 ms here (Lucene's dot product: 0.52 ms
   * per 4,096 on the 2-vCPU benchmark machine), which bounds what the exact path can cost beyond a
   * graph walk.
   */
  static final int EXACT_LIMIT = 4_096;

  private static final TopDocs INCOMPLETE =
      new TopDocs(new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO), new ScoreDoc[0]);

  ScopedKnnQuery(String field, float[] target, int k, Query restriction) {
    super(field, target, k, restriction);
  }

  /**
   * Lucene calls this with {@code visitedLimit} one above the number of documents the restriction
   * admits in the segment; an incomplete answer makes it score them all instead ({@code
   * exactSearch}).
   */
  @Override
  protected TopDocs approximateSearch(
      LeafReaderContext context,
      Bits acceptDocs,
      int visitedLimit,
      KnnCollectorManager collectorManager)
      throws IOException {
    if (acceptDocs != null && visitedLimit - 1 <= EXACT_LIMIT) {
      return INCOMPLETE;
    }
    return super.approximateSearch(context, acceptDocs, visitedLimit, collectorManager);
  }
}

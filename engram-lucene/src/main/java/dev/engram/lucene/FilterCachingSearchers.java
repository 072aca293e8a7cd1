package dev.engram.lucene;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LRUQueryCache;
import org.apache.lucene.search.QueryCache;
import org.apache.lucene.search.QueryCachingPolicy;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.UsageTrackingQueryCachingPolicy;

/**
 * The searchers of one index, sharing one query cache that keeps the documents a repeated filter
 * admits in every segment, small ones included. A search reads its restriction (tenant, scope,
 * filter, expiry) up to four times: to count its memories and terms and as the filter of its two
 * keyword lists, and, with the field's vectors, for each of its dense lists. Lucene's default cache
 * skips segments of fewer than 10,000 documents, which is every segment of a store of a few
 * thousand memories a scope, so each of those reads walked the restriction's postings again. The
 * policy is Lucene's default ({@link UsageTrackingQueryCachingPolicy}: a filter is cached once it
 * has been used a few times lately); the cache's bounds are those of Lucene's default cache (1,000
 * filters, a twentieth of the heap up to 32 MiB). A cached set is a segment's, read with the
 * segment's current deletions, so what a search admits is exactly what it admitted uncached.
 */
final class FilterCachingSearchers extends SearcherFactory {
  private static final int MAX_FILTERS = 1_000;
  private static final long MAX_BYTES =
      Math.min(Runtime.getRuntime().maxMemory() / 20, 32L * 1024 * 1024);

  /**
   * Lucene's default: a filter whose cost exceeds ten times that of the clause leading a search
   * (the documents holding a rare term) is not computed in full just to be cached.
   */
  private static final float SKIP_FACTOR = 10f;

  private final QueryCache cache =
      new LRUQueryCache(MAX_FILTERS, MAX_BYTES, leaf -> true, SKIP_FACTOR);
  private final QueryCachingPolicy policy = new UsageTrackingQueryCachingPolicy();

  @Override
  public IndexSearcher newSearcher(IndexReader reader, IndexReader previousReader) {
    IndexSearcher searcher = new IndexSearcher(reader);
    searcher.setQueryCache(cache);
    searcher.setQueryCachingPolicy(policy);
    return searcher;
  }
}

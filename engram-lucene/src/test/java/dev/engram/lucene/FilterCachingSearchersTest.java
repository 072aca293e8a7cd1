package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LRUQueryCache;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.Bits;
import org.junit.jupiter.api.Test;

/**
 * {@link FilterCachingSearchers} on a real Lucene index of small segments (Lucene's default cache
 * skips segments under 10,000 documents): a restriction used again and again is cached in each
 * segment, and what it admits after a deletion is what an uncached searcher admits.
 */
class FilterCachingSearchersTest {

  @Test
  void aRepeatedRestrictionIsCachedInSmallSegmentsAndSeesLaterDeletions() throws IOException {
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer =
            new IndexWriter(
                dir,
                new IndexWriterConfig(new WhitespaceAnalyzer())
                    .setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int segment = 0; segment < 3; segment++) {
        for (int i = 0; i < 300; i++) {
          Document d = new Document();
          d.add(new StringField("key", "m" + (segment * 300 + i), Field.Store.NO));
          d.add(new StringField("tenant", "t", Field.Store.NO));
          d.add(new StringField("user", i % 3 == 0 ? "ann" : "bob", Field.Store.NO));
          writer.addDocument(d);
        }
        writer.commit();
      }
      Query restriction =
          new BooleanQuery.Builder()
              .add(new TermQuery(new Term("tenant", "t")), Occur.FILTER)
              .add(new TermQuery(new Term("user", "ann")), Occur.FILTER)
              .build();

      try (SearcherManager searchers = new SearcherManager(writer, new FilterCachingSearchers())) {
        IndexSearcher searcher = searchers.acquire();
        LRUQueryCache cache;
        try {
          assertThat(searcher.getIndexReader().leaves()).hasSize(3);
          cache = (LRUQueryCache) searcher.getQueryCache();
          for (int i = 0; i < 6; i++) {
            assertThat(admitted(searcher, restriction)).isEqualTo(300);
          }
          assertThat(cache.getCacheCount()).isGreaterThanOrEqualTo(3); // once in each segment
          assertThat(cache.getHitCount()).isPositive();
        } finally {
          searchers.release(searcher);
        }

        writer.deleteDocuments(new Term("key", "m0"), new Term("key", "m303"));
        searchers.maybeRefreshBlocking();
        IndexSearcher after = searchers.acquire();
        try {
          assertThat(after.getQueryCache()).isSameAs(cache);
          long hitsBefore = cache.getHitCount();
          IndexSearcher uncached = new IndexSearcher(after.getIndexReader());
          uncached.setQueryCache(null);
          assertThat(admitted(after, restriction))
              .isEqualTo(admitted(uncached, restriction))
              .isEqualTo(298);
          assertThat(cache.getHitCount()).isGreaterThan(hitsBefore); // the segments' sets reused
        } finally {
          searchers.release(after);
        }
      }
    }
  }

  /**
   * The live documents {@code restriction} admits, read as the index's exact dense search reads
   * them: a weight that does not score, a scorer per segment.
   */
  private static int admitted(IndexSearcher searcher, Query restriction) throws IOException {
    Weight weight =
        searcher.createWeight(searcher.rewrite(restriction), ScoreMode.COMPLETE_NO_SCORES, 1f);
    int n = 0;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Scorer scorer = weight.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      DocIdSetIterator it = scorer.iterator();
      for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
        if (live == null || live.get(doc)) {
          n++;
        }
      }
    }
    return n;
  }
}

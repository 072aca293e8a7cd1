package dev.engram.lucene;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.DocIdSet;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.DocIdSetBuilder;

/**
 * The live documents a restriction (a search's tenant, scope and filter) admits on one searcher,
 * gathered once per segment, so that how many of them hold each of a query's terms is read from the
 * terms' postings: the same numbers as {@code IndexSearcher.count} of each term within the
 * restriction, without running a query per term (each of which looked up the restriction's own
 * terms again and allocated its scorers). A segment's documents are kept by Lucene's {@link
 * DocIdSetBuilder}: a sorted array while they are few (one user's memories in a shared index), a
 * bit set once they are many.
 */
final class AdmittedDocs {
  private final IndexSearcher searcher;
  private final DocIdSet[] bySegment;
  private final int count;

  private AdmittedDocs(IndexSearcher searcher, DocIdSet[] bySegment, int count) {
    this.searcher = searcher;
    this.bySegment = bySegment;
    this.count = count;
  }

  /** Gathers the live documents {@code restriction} matches on {@code searcher}. */
  static AdmittedDocs of(IndexSearcher searcher, Query restriction) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    DocIdSet[] bySegment = new DocIdSet[leaves.size()];
    Weight weight =
        searcher.createWeight(searcher.rewrite(restriction), ScoreMode.COMPLETE_NO_SCORES, 1f);
    int count = 0;
    for (LeafReaderContext leaf : leaves) {
      BulkScorer scorer = weight.bulkScorer(leaf);
      if (scorer == null) {
        continue;
      }
      Gathered docs = new Gathered(leaf.reader().maxDoc());
      scorer.score(docs, leaf.reader().getLiveDocs(), 0, DocIdSetIterator.NO_MORE_DOCS);
      if (docs.size > 0) {
        bySegment[leaf.ord] = docs.builder.build();
        count += docs.size;
      }
    }
    return new AdmittedDocs(searcher, bySegment, count);
  }

  /**
   * Whether {@code restriction} matches each of {@code docs} (documents of {@code searcher}'s
   * reader), in their order; deletions are not checked. The restriction's documents are read as a
   * search reads them, through the searcher's query cache ({@link FilterCachingSearchers}), so a
   * scope searched before costs a look-up in its cached set per document.
   */
  static boolean[] admits(IndexSearcher searcher, Query restriction, ScoreDoc[] docs)
      throws IOException {
    boolean[] out = new boolean[docs.length];
    if (docs.length == 0) {
      return out;
    }
    Weight weight =
        searcher.createWeight(searcher.rewrite(restriction), ScoreMode.COMPLETE_NO_SCORES, 1f);
    DocOrder.walk(
        searcher.getIndexReader(),
        docs,
        leaf -> {
          Scorer scorer = weight.scorer(leaf);
          return scorer == null ? null : scorer.iterator();
        },
        (matches, position, doc) -> {
          if (matches != null) {
            int at = matches.docID() >= doc ? matches.docID() : matches.advance(doc);
            out[position] = at == doc;
          }
        });
    return out;
  }

  /** How many live documents the restriction admits. */
  int count() {
    return count;
  }

  /**
   * How many admitted documents hold each term in {@code field}, in the order of {@code terms} (a
   * term given twice counted once).
   */
  Map<String, Integer> frequencies(String field, List<String> terms) throws IOException {
    return lookUp(field, terms, false).frequencies();
  }

  /**
   * Each term's admitted documents, as {@link #frequencies}, and its states in every segment of the
   * searcher, as {@link TermStates#build} reads them for a {@link TermQuery} that scores: a keyword
   * query built with them ({@link TermLookup#query}) does not look its terms up again (which
   * allocated a terms enum per term and segment, a fifth of a BEAM search's allocation).
   */
  TermLookup lookUp(String field, List<String> terms) throws IOException {
    return lookUp(field, terms, true);
  }

  private TermLookup lookUp(String field, List<String> terms, boolean withStates)
      throws IOException {
    Map<String, Integer> frequencies = new LinkedHashMap<>();
    Map<String, TermStates> states = new HashMap<>();
    for (String t : terms) {
      frequencies.put(t, 0);
      if (withStates) {
        states.put(t, new TermStates(searcher.getTopReaderContext()));
      }
    }
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      DocIdSet docs = bySegment[leaf.ord];
      Terms fieldTerms = docs == null && !withStates ? null : leaf.reader().terms(field);
      if (fieldTerms == null) {
        continue;
      }
      TermsEnum termsEnum = fieldTerms.iterator();
      PostingsEnum postings = null;
      for (Map.Entry<String, Integer> e : frequencies.entrySet()) {
        if (!termsEnum.seekExact(new BytesRef(e.getKey()))) {
          continue;
        }
        if (withStates) {
          states
              .get(e.getKey())
              .register(
                  termsEnum.termState(), leaf.ord, termsEnum.docFreq(), termsEnum.totalTermFreq());
        }
        DocIdSetIterator admitted = docs == null ? null : docs.iterator();
        if (admitted != null) {
          postings = termsEnum.postings(postings, PostingsEnum.NONE);
          e.setValue(e.getValue() + both(postings, admitted));
        }
      }
    }
    return new TermLookup(field, frequencies, states);
  }

  /** How many documents two iterators (unread) share: each skips to the other's next document. */
  private static int both(DocIdSetIterator a, DocIdSetIterator b) throws IOException {
    int shared = 0;
    int doc = a.nextDoc();
    while (doc != DocIdSetIterator.NO_MORE_DOCS) {
      int other = b.docID() < doc ? b.advance(doc) : b.docID();
      if (other == doc) {
        shared++;
        doc = a.nextDoc();
      } else if (other == DocIdSetIterator.NO_MORE_DOCS) {
        break;
      } else {
        doc = a.advance(other);
      }
    }
    return shared;
  }

  /**
   * A keyword query's terms in {@code field}: how many admitted documents hold each and, when
   * looked up for a search, each one's states in the searcher's segments.
   */
  record TermLookup(
      String field, Map<String, Integer> frequencies, Map<String, TermStates> states) {
    /**
     * The query for {@code term} in the lookup's field, scored as Lucene scores it, with the states
     * looked up here when there are some.
     */
    TermQuery query(String term) {
      Term t = new Term(field, term);
      TermStates s = states.get(term);
      return s == null ? new TermQuery(t) : new TermQuery(t, s);
    }
  }

  /** Collects a segment's documents, as the bulk scorer hands them over (in order, once each). */
  private static final class Gathered implements LeafCollector {
    final DocIdSetBuilder builder;
    int size;

    Gathered(int maxDoc) {
      builder = new DocIdSetBuilder(maxDoc);
    }

    @Override
    public void setScorer(Scorable scorable) {}

    @Override
    public void collect(int doc) {
      builder.grow(1).add(doc);
      size++;
    }
  }
}

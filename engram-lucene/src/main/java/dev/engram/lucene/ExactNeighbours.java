package dev.engram.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * The nearest vectors of many targets in one pass over the documents a restriction admits: each
 * admitted document's vector is read once and scored against every target ({@link TargetScores}).
 * The answer for each target is the one {@link ScopedKnnQuery} gives alone where it scores exactly
 * (every segment admits at most {@link ScopedKnnQuery#EXACT_LIMIT} documents with a vector): the
 * same similarity function on the same floats, the best {@code k} with ties to the lower document,
 * as Lucene's exact search and its merge of the segments' hits order them. Where a segment admits
 * more, that query walks the HNSW graph instead, and this answers nothing. Documents are scored
 * four at a time ({@link TargetScores}), where Lucene's exact search scores one at a time, so even
 * for one target {@link LuceneSearchIndex#dense} asks here first.
 */
final class ExactNeighbours {
  private ExactNeighbours() {}

  /**
   * For each of {@code targets}, its {@code k} nearest documents with a vector in {@code field}
   * among those {@code restriction} admits, best first, with Lucene's scores and global document
   * ids; empty if a segment admits more than {@link ScopedKnnQuery#EXACT_LIMIT} of them.
   */
  static Optional<ScoreDoc[][]> search(
      IndexSearcher searcher, Query restriction, String field, List<float[]> targets, int k)
      throws IOException {
    if (targets.isEmpty()) {
      return Optional.of(new ScoreDoc[0][]);
    }
    Query admitted =
        new BooleanQuery.Builder()
            .add(restriction, Occur.FILTER)
            .add(new FieldExistsQuery(field), Occur.FILTER)
            .build();
    Weight filter =
        searcher.createWeight(searcher.rewrite(admitted), ScoreMode.COMPLETE_NO_SCORES, 1f);
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    List<int[]> docsOfLeaf = new ArrayList<>(leaves.size());
    for (LeafReaderContext leaf : leaves) {
      Optional<int[]> docs = admittedDocs(filter, leaf);
      if (docs.isEmpty()) {
        return Optional.empty();
      }
      docsOfLeaf.add(docs.get());
    }
    Optional<VectorSimilarityFunction> similarity = similarity(leaves, field);
    if (similarity.isEmpty()) { // no segment holds the field
      return Optional.of(new ScoreDoc[targets.size()][0]);
    }
    TargetScores scoring = TargetScores.of(similarity.get(), targets);
    HitQueue[] best = new HitQueue[targets.size()];
    for (int t = 0; t < best.length; t++) {
      best[t] = new HitQueue(k, true);
    }
    for (int l = 0; l < leaves.size(); l++) {
      score(leaves.get(l), docsOfLeaf.get(l), field, scoring, best);
    }
    ScoreDoc[][] out = new ScoreDoc[best.length][];
    for (int t = 0; t < best.length; t++) {
      out[t] = ordered(best[t]);
    }
    return Optional.of(out);
  }

  /**
   * The field's similarity, as the first segment that holds it records it (all record the same).
   */
  private static Optional<VectorSimilarityFunction> similarity(
      List<LeafReaderContext> leaves, String field) {
    for (LeafReaderContext leaf : leaves) {
      FieldInfo info = leaf.reader().getFieldInfos().fieldInfo(field);
      if (info != null) {
        return Optional.of(info.getVectorSimilarityFunction());
      }
    }
    return Optional.empty();
  }

  /**
   * The queue's hits, best first, without the sentinels it was filled with (as Lucene's exact
   * search takes them out).
   */
  private static ScoreDoc[] ordered(HitQueue queue) {
    while (queue.size() > 0 && queue.top().score < 0) {
      queue.pop();
    }
    ScoreDoc[] out = new ScoreDoc[queue.size()];
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = queue.pop();
    }
    return out;
  }

  /**
   * The live documents of the leaf that {@code filter} matches, in order; empty as soon as there
   * are more than {@link ScopedKnnQuery#EXACT_LIMIT}, which the leaf does not score exactly (so a
   * large scope costs no more than that many steps before the graph walk). The array is sized by
   * the filter's estimate of its matches, not grown from a few.
   */
  private static Optional<int[]> admittedDocs(Weight filter, LeafReaderContext leaf)
      throws IOException {
    Scorer scorer = filter.scorer(leaf);
    if (scorer == null) {
      return Optional.of(new int[0]);
    }
    Bits live = leaf.reader().getLiveDocs();
    DocIdSetIterator it = scorer.iterator();
    int[] docs = new int[(int) Math.min(Math.max(it.cost(), 16), ScopedKnnQuery.EXACT_LIMIT)];
    int n = 0;
    for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
      if (live == null || live.get(doc)) {
        if (n == ScopedKnnQuery.EXACT_LIMIT) {
          return Optional.empty();
        }
        if (n == docs.length) {
          docs = Arrays.copyOf(docs, n * 2);
        }
        docs[n++] = doc;
      }
    }
    return Optional.of(n == docs.length ? docs : Arrays.copyOf(docs, n));
  }

  /**
   * Scores the leaf's admitted documents against every target, {@link TargetScores#BLOCK} documents
   * at a time, and offers them to each target's queue in document order: a document takes the place
   * of a target's worst kept hit when it scores strictly above it (on a tie the earlier document
   * stays), as Lucene's exact search keeps them in the same queue.
   */
  private static void score(
      LeafReaderContext leaf, int[] docs, String field, TargetScores scoring, HitQueue[] best)
      throws IOException {
    if (docs.length == 0) {
      return;
    }
    FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
    if (values == null) {
      return;
    }
    float[][] block = new float[TargetScores.BLOCK][values.dimension()];
    int[] blockDocs = new int[TargetScores.BLOCK];
    float[][] scores = new float[TargetScores.BLOCK][best.length];
    int n = 0;
    for (int doc : docs) {
      int at = values.docID() >= doc ? values.docID() : values.advance(doc);
      if (at != doc) {
        continue;
      }
      // the values' buffer is overwritten by the next document's vector: the block keeps a copy
      System.arraycopy(values.vectorValue(), 0, block[n], 0, block[n].length);
      blockDocs[n++] = leaf.docBase + doc;
      if (n == TargetScores.BLOCK) {
        offerBlock(scoring, block, blockDocs, n, scores, best);
        n = 0;
      }
    }
    offerBlock(scoring, block, blockDocs, n, scores, best);
  }

  private static void offerBlock(
      TargetScores scoring,
      float[][] block,
      int[] blockDocs,
      int count,
      float[][] scores,
      HitQueue[] best) {
    scoring.scores(block, count, scores);
    for (int j = 0; j < count; j++) {
      for (int t = 0; t < best.length; t++) {
        offer(best[t], scores[j][t], blockDocs[j]);
      }
    }
  }

  /**
   * Puts the document in the place of the queue's worst kept hit if it scores strictly above it (on
   * a tie the earlier document stays).
   */
  private static void offer(HitQueue best, float score, int doc) {
    ScoreDoc worst = best.top();
    if (score > worst.score) {
      worst.score = score;
      worst.doc = doc;
      best.updateTop();
    }
  }
}

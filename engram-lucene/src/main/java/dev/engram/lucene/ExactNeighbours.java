package dev.engram.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FieldExistsQuery;
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
 * more, that query walks the HNSW graph instead, and this answers nothing.
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
      int[] docs = admittedDocs(filter, leaf);
      if (docs.length > ScopedKnnQuery.EXACT_LIMIT) {
        return Optional.empty();
      }
      docsOfLeaf.add(docs);
    }
    Best[] best = new Best[targets.size()];
    for (int t = 0; t < best.length; t++) {
      best[t] = new Best(k);
    }
    for (int l = 0; l < leaves.size(); l++) {
      score(leaves.get(l), docsOfLeaf.get(l), field, targets, best);
    }
    ScoreDoc[][] out = new ScoreDoc[best.length][];
    for (int t = 0; t < best.length; t++) {
      out[t] = best[t].ordered();
    }
    return Optional.of(out);
  }

  /** The live documents of the leaf that {@code filter} matches, in order. */
  private static int[] admittedDocs(Weight filter, LeafReaderContext leaf) throws IOException {
    Scorer scorer = filter.scorer(leaf);
    if (scorer == null) {
      return new int[0];
    }
    Bits live = leaf.reader().getLiveDocs();
    DocIdSetIterator it = scorer.iterator();
    int[] docs = new int[16];
    int n = 0;
    for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
      if (live == null || live.get(doc)) {
        if (n == docs.length) {
          docs = Arrays.copyOf(docs, n * 2);
        }
        docs[n++] = doc;
      }
    }
    return Arrays.copyOf(docs, n);
  }

  /** Scores the leaf's admitted documents against every target, in document order. */
  private static void score(
      LeafReaderContext leaf, int[] docs, String field, List<float[]> targets, Best[] best)
      throws IOException {
    if (docs.length == 0) {
      return;
    }
    LeafReader reader = leaf.reader();
    FloatVectorValues values = reader.getFloatVectorValues(field);
    FieldInfo info = reader.getFieldInfos().fieldInfo(field);
    if (values == null || info == null) {
      return;
    }
    TargetScores scoring = TargetScores.of(info.getVectorSimilarityFunction(), targets);
    float[] scores = new float[best.length];
    for (int doc : docs) {
      int at = values.docID() >= doc ? values.docID() : values.advance(doc);
      if (at != doc) {
        continue;
      }
      scoring.scores(values.vectorValue(), scores);
      int global = leaf.docBase + doc;
      for (int t = 0; t < best.length; t++) {
        best[t].offer(scores[t], global);
      }
    }
  }

  /**
   * The best {@code k} documents offered, offered in increasing document order: a document enters
   * when the queue has room or when it scores strictly above the worst held (on a tie the earlier
   * document stays), as Lucene's exact search keeps them. A min-heap by score, the later document
   * the worse on ties.
   */
  private static final class Best {
    private final float[] scores;
    private final int[] docs;
    private int size;

    Best(int k) {
      scores = new float[k];
      docs = new int[k];
    }

    void offer(float score, int doc) {
      if (size < scores.length) {
        scores[size] = score;
        docs[size] = doc;
        up(size++);
      } else if (score > scores[0]) {
        scores[0] = score;
        docs[0] = doc;
        down(0);
      }
    }

    /** Best first: higher score, then lower document. */
    ScoreDoc[] ordered() {
      ScoreDoc[] out = new ScoreDoc[size];
      for (int i = 0; i < size; i++) {
        out[i] = new ScoreDoc(docs[i], scores[i]);
      }
      Arrays.sort(
          out,
          (a, b) ->
              a.score != b.score ? Float.compare(b.score, a.score) : Integer.compare(a.doc, b.doc));
      return out;
    }

    private boolean worse(int i, int j) {
      return scores[i] < scores[j] || (scores[i] == scores[j] && docs[i] > docs[j]);
    }

    private void up(int i) {
      while (i > 0) {
        int parent = (i - 1) / 2;
        if (!worse(i, parent)) {
          return;
        }
        swap(i, parent);
        i = parent;
      }
    }

    private void down(int i) {
      while (true) {
        int left = 2 * i + 1;
        if (left >= size) {
          return;
        }
        int worst = left + 1 < size && worse(left + 1, left) ? left + 1 : left;
        if (!worse(worst, i)) {
          return;
        }
        swap(i, worst);
        i = worst;
      }
    }

    private void swap(int i, int j) {
      float s = scores[i];
      scores[i] = scores[j];
      scores[j] = s;
      int d = docs[i];
      docs[i] = docs[j];
      docs[j] = d;
    }
  }
}

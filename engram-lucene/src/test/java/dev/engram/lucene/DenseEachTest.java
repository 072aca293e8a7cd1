package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The neighbours of many vectors at once ({@link LuceneSearchIndex#denseEach}, {@link
 * ExactNeighbours}) are those each gets alone: the same documents, scores and order, over several
 * segments, with deleted documents, documents without the vector and exact ties; and where a
 * segment admits more than the exact limit, the graph walk of one search per vector.
 */
class DenseEachTest {
  private static final int DIM = 16;

  @TempDir Path dir;

  /** A random unit vector; every fifth one repeats an earlier one, so that scores tie exactly. */
  private static float[] vector(Random random, List<float[]> earlier) {
    return vector(random, earlier, DIM);
  }

  private static float[] vector(Random random, List<float[]> earlier, int dimension) {
    if (!earlier.isEmpty() && random.nextInt(5) == 0) {
      return earlier.get(random.nextInt(earlier.size())).clone();
    }
    float[] v = new float[dimension];
    for (int d = 0; d < dimension; d++) {
      v[d] = (float) random.nextGaussian();
    }
    return Docs.unit(v);
  }

  @Test
  void manyVectorsAtOnceGetWhatEachGetsAloneInTheIndex() {
    Random random = new Random(11);
    List<float[]> vectors = new ArrayList<>();
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, DIM)) {
      for (int batch = 0; batch < 4; batch++) { // one segment per batch at least
        List<IndexOp> ops = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
          int n = batch * 150 + i;
          float[] v = vector(random, vectors);
          vectors.add(v);
          String user = n % 7 == 0 ? "bob" : "alice";
          StoredMemory m =
              Docs.stored("t", Docs.item("m" + n, "note " + n, user, null, Map.of(), null), v);
          if (n % 3 != 0) { // two in three have a context embedding
            m = new StoredMemory("t", m.item(), v, "context " + n, vector(random, vectors));
          }
          ops.add(new IndexOp.Upsert(m));
        }
        for (int i = 0; i < 10; i++) { // and some of the earlier ones are deleted
          ops.add(new IndexOp.Remove("t", "m" + random.nextInt(vectors.size())));
        }
        index.apply(ops, batch + 1, batch + 1);
      }
      List<float[]> targets = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        targets.add(
            i % 2 == 0 ? vectors.get(random.nextInt(vectors.size())) : vector(random, List.of()));
      }
      for (IndexField field : List.of(IndexField.TEXT, IndexField.CONTEXT)) {
        for (Scope scope : List.of(Scope.user("alice"), Scope.user("bob"))) {
          List<List<Candidate>> together =
              index.denseEach(Docs.query("t", scope), field, targets, 47);
          assertThat(together).hasSize(targets.size());
          for (int i = 0; i < targets.size(); i++) {
            List<Candidate> alone = index.dense(Docs.query("t", scope), field, targets.get(i), 47);
            assertThat(alone).as("%s %s target %d", field, scope, i).hasSize(47);
            assertThat(together.get(i)).as("%s %s target %d", field, scope, i).isEqualTo(alone);
          }
        }
      }
      assertThat(index.denseEach(Docs.query("t", Scope.user("carol")), IndexField.TEXT, targets, 5))
          .allSatisfy(list -> assertThat(list).isEmpty());
    }
  }

  @Test
  void aSegmentOverTheExactLimitGetsOneSearchPerVector() {
    Random random = new Random(5);
    List<float[]> vectors = new ArrayList<>();
    List<IndexOp> ops = new ArrayList<>();
    for (int n = 0; n < ScopedKnnQuery.EXACT_LIMIT + 100; n++) {
      float[] v = vector(random, vectors);
      vectors.add(v);
      ops.add(
          new IndexOp.Upsert(
              Docs.stored("t", Docs.item("m" + n, "note " + n, "alice", null, Map.of(), null), v)));
    }
    try (LuceneSearchIndex index = LuceneSearchIndex.open(dir, DIM)) {
      index.apply(ops, 1, 1);
      List<float[]> targets =
          List.of(vectors.get(3), vectors.get(2_000), vector(random, List.of()));
      List<List<Candidate>> together =
          index.denseEach(Docs.query("t", Scope.user("alice")), IndexField.TEXT, targets, 10);
      for (int i = 0; i < targets.size(); i++) {
        assertThat(together.get(i))
            .isEqualTo(
                index.dense(
                    Docs.query("t", Scope.user("alice")), IndexField.TEXT, targets.get(i), 10));
      }
    }
  }

  /**
   * Below and above the width where Lucene's dot product unrolls its sums, many targets at once and
   * each alone (scored four documents at a time).
   */
  @Test
  void exactNeighboursEqualTheScopedQueryOverSegmentsDeletionsAndTies() throws IOException {
    for (int dimension : new int[] {DIM, 384}) {
      exactNeighboursEqualTheScopedQuery(dimension);
    }
  }

  private static void exactNeighboursEqualTheScopedQuery(int dimension) throws IOException {
    Random random = new Random(3);
    List<float[]> vectors = new ArrayList<>();
    try (Directory directory = new ByteBuffersDirectory()) {
      IndexWriterConfig config = new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE);
      try (IndexWriter writer = new IndexWriter(directory, config)) {
        for (int n = 0; n < 600; n++) {
          Document doc = new Document();
          doc.add(new StringField("id", "d" + n, Field.Store.NO));
          doc.add(new StringField("user", n % 4 == 0 ? "bob" : "alice", Field.Store.NO));
          if (n % 9 != 0) { // 25 distinct vectors: every score ties, at the k-th place too
            float[] v =
                vectors.size() < 25
                    ? vector(random, List.of(), dimension)
                    : vectors.get(random.nextInt(25)).clone();
            vectors.add(v);
            doc.add(new KnnFloatVectorField("v", v, VectorSimilarityFunction.DOT_PRODUCT));
          }
          writer.addDocument(doc);
          if (n % 150 == 149) {
            writer.commit(); // a segment
          }
        }
        for (int i = 0; i < 30; i++) {
          writer.deleteDocuments(new Term("id", "d" + random.nextInt(600)));
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        assertThat(reader.leaves()).hasSizeGreaterThan(1);
        IndexSearcher searcher = new IndexSearcher(reader);
        Query alice = new TermQuery(new Term("user", "alice"));
        List<float[]> targets = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
          targets.add(
              i % 2 == 0
                  ? vectors.get(random.nextInt(vectors.size()))
                  : vector(random, List.of(), dimension));
        }
        assertThat(ExactNeighbours.search(searcher, alice, "v", List.of(), 40))
            .hasValueSatisfying(none -> assertThat(none).isEmpty());
        Optional<ScoreDoc[][]> together = ExactNeighbours.search(searcher, alice, "v", targets, 40);
        assertThat(together).isPresent();
        for (int i = 0; i < targets.size(); i++) {
          ScoreDoc[] alone =
              searcher.search(new ScopedKnnQuery("v", targets.get(i), 40, alice), 40).scoreDocs;
          Optional<ScoreDoc[][]> one =
              ExactNeighbours.search(searcher, alice, "v", List.of(targets.get(i)), 40);
          assertThat(one).isPresent();
          for (ScoreDoc[] exact : List.of(together.get()[i], one.get()[0])) {
            assertThat(exact).hasSameSizeAs(alone);
            for (int j = 0; j < alone.length; j++) {
              assertThat(exact[j].doc)
                  .as("width %d target %d hit %d", dimension, i, j)
                  .isEqualTo(alone[j].doc);
              assertThat(exact[j].score)
                  .as("width %d target %d hit %d", dimension, i, j)
                  .isEqualTo(alone[j].score);
            }
          }
        }
      }
    }
  }

  /**
   * Where every document ties, the first ones in document order are kept, whatever place the cut
   * falls on in a block of four.
   */
  @Test
  void exactNeighboursKeepTheFirstDocumentsOfATie() throws IOException {
    float[] same = vector(new Random(13), List.of(), 384);
    try (Directory directory = new ByteBuffersDirectory()) {
      try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
        for (int n = 0; n < 101; n++) {
          Document doc = new Document();
          doc.add(new StringField("user", n % 10 == 3 ? "bob" : "alice", Field.Store.NO));
          doc.add(new KnnFloatVectorField("v", same, VectorSimilarityFunction.DOT_PRODUCT));
          writer.addDocument(doc);
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        Query alice = new TermQuery(new Term("user", "alice"));
        for (int k : new int[] {1, 2, 5, 42, 43, 90, 91}) {
          ScoreDoc[] alone = searcher.search(new ScopedKnnQuery("v", same, k, alice), k).scoreDocs;
          ScoreDoc[] exact =
              ExactNeighbours.search(searcher, alice, "v", List.of(same), k).get()[0];
          assertThat(Arrays.stream(exact).mapToInt(d -> d.doc).toArray())
              .as("k %d", k)
              .containsExactly(Arrays.stream(alone).mapToInt(d -> d.doc).toArray());
        }
      }
    }
  }

  @Test
  void exactNeighboursAnswerNothingWhereASegmentAdmitsMoreThanTheLimit() throws IOException {
    Random random = new Random(9);
    try (Directory directory = new ByteBuffersDirectory()) {
      try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig())) {
        for (int n = 0; n <= ScopedKnnQuery.EXACT_LIMIT; n++) {
          Document doc = new Document();
          doc.add(new StringField("user", n == 7 ? "bob" : "alice", Field.Store.NO));
          doc.add(new StringField("all", "yes", Field.Store.NO));
          doc.add(
              new KnnFloatVectorField(
                  "v", vector(random, List.of()), VectorSimilarityFunction.DOT_PRODUCT));
          writer.addDocument(doc);
        }
        writer.forceMerge(1);
      }
      try (DirectoryReader reader = DirectoryReader.open(directory)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        Query all = new TermQuery(new Term("all", "yes"));
        List<float[]> targets = List.of(vector(random, List.of()), vector(random, List.of()));

        assertThat(ExactNeighbours.search(searcher, all, "v", targets, 10)).isEmpty();
        assertThat(ExactNeighbours.search(searcher, all, "v", targets.subList(0, 1), 10)).isEmpty();

        Query alice = new TermQuery(new Term("user", "alice")); // exactly the limit: answered
        ScoreDoc[] exact = ExactNeighbours.search(searcher, alice, "v", targets, 10).get()[0];
        ScoreDoc[] alone =
            searcher.search(new ScopedKnnQuery("v", targets.get(0), 10, alice), 10).scoreDocs;
        assertThat(Arrays.stream(exact).mapToInt(d -> d.doc).toArray())
            .containsExactly(Arrays.stream(alone).mapToInt(d -> d.doc).toArray());
      }
    }
  }
}

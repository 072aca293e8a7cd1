package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link AdmittedDocs} gives the numbers of one {@code IndexSearcher.count} per term within the
 * restriction, on a real Lucene index of several segments with deleted documents, for a scope that
 * is most of the index (a bit set), one of a few documents a segment (under {@code
 * DocIdSetBuilder}'s one in 128: a sorted array) and one that admits nothing.
 */
class AdmittedDocsTest {
  private static final List<String> WORDS =
      List.of("tea", "chess", "bread", "lisbon", "puppy", "deadline", "flask", "api", "rare");

  /** The words asked about: each word, one no document holds, and one given twice. */
  private static final List<String> TERMS = terms();

  /** Most of the index, a few documents a segment, nothing, everything. */
  private static final List<Query> RESTRICTIONS =
      List.of(
          new TermQuery(new Term("user", "ann")),
          new TermQuery(new Term("user", "sliver")),
          new TermQuery(new Term("user", "nobody")),
          new MatchAllDocsQuery());

  private static List<String> terms() {
    List<String> out = new ArrayList<>(WORDS);
    out.add("absent");
    out.add("tea");
    return List.copyOf(out);
  }

  private static Directory dir;
  private static DirectoryReader reader;
  private static IndexSearcher searcher;

  @BeforeAll
  static void openIndex() throws IOException {
    dir = new ByteBuffersDirectory();
    index(dir);
    reader = DirectoryReader.open(dir);
    searcher = new IndexSearcher(reader);
  }

  @AfterAll
  static void closeIndex() throws IOException {
    reader.close();
    dir.close();
  }

  @Test
  void countsEachTermWithinTheRestrictionAsAQueryPerTermWould() throws IOException {
    assertThat(reader.leaves()).hasSizeGreaterThan(1);
    assertThat(reader.numDeletedDocs()).isPositive();
    for (Query restriction : RESTRICTIONS) {
      AdmittedDocs admitted = AdmittedDocs.of(searcher, restriction);

      assertThat(admitted.count()).isEqualTo(searcher.count(restriction));
      assertThat(admitted.frequencies("text", TERMS))
          .containsExactlyEntriesOf(perTermCounts(restriction));
      assertThat(admitted.lookUp("text", TERMS).frequencies())
          .containsExactlyEntriesOf(perTermCounts(restriction));
    }
    assertThat(AdmittedDocs.of(searcher, new TermQuery(new Term("user", "sliver"))).count())
        .isBetween(1, 20);
  }

  /**
   * The term states looked up with the counts score as Lucene's own look-up does: the same hits, in
   * the same order, with the same BM25 scores (the statistics are the whole index's, segments
   * without an admitted document included).
   */
  @Test
  void aQueryOfTheLookedUpTermsScoresAsLuceneLooksThemUp() throws IOException {
    for (Query restriction : RESTRICTIONS) {
      AdmittedDocs.TermLookup lookup = AdmittedDocs.of(searcher, restriction).lookUp("text", TERMS);
      assertThat(lookup.states().get("tea").docFreq())
          .isEqualTo(reader.docFreq(new Term("text", "tea")));

      TopDocs looked = searcher.search(anyOf(lookup::query, restriction), 50);
      TopDocs plain =
          searcher.search(anyOf(t -> new TermQuery(new Term("text", t)), restriction), 50);

      assertThat(looked.scoreDocs).hasSameSizeAs(plain.scoreDocs);
      for (int i = 0; i < plain.scoreDocs.length; i++) {
        assertThat(looked.scoreDocs[i].doc).isEqualTo(plain.scoreDocs[i].doc);
        assertThat(looked.scoreDocs[i].score).isEqualTo(plain.scoreDocs[i].score);
      }
    }
  }

  private static Query anyOf(Function<String, TermQuery> termQuery, Query restriction) {
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    TERMS.forEach(t -> any.add(termQuery.apply(t), Occur.SHOULD));
    return new BooleanQuery.Builder()
        .add(any.build(), Occur.MUST)
        .add(restriction, Occur.FILTER)
        .build();
  }

  /** Five segments of 400 documents each, then 300 deletions. */
  private static void index(Directory dir) throws IOException {
    Random random = new Random(20261206);
    try (IndexWriter writer =
        new IndexWriter(
            dir,
            new IndexWriterConfig(new WhitespaceAnalyzer())
                .setMergePolicy(NoMergePolicy.INSTANCE))) {
      int id = 0;
      for (int segment = 0; segment < 5; segment++) {
        for (int i = 0; i < 400; i++, id++) {
          Document d = new Document();
          d.add(new StringField("id", "m" + id, Field.Store.NO));
          String user =
              random.nextInt(300) == 0 ? "sliver" : random.nextInt(4) == 0 ? "bob" : "ann";
          d.add(new StringField("user", user, Field.Store.NO));
          StringBuilder text = new StringBuilder();
          for (String w : WORDS) {
            if (random.nextInt(w.equals("rare") ? 200 : 3) == 0) {
              text.append(w).append(' ');
            }
          }
          d.add(new TextField("text", text.toString(), Field.Store.NO));
          writer.addDocument(d);
        }
        writer.commit();
      }
      for (int i = 0; i < 300; i++) {
        writer.deleteDocuments(new Term("id", "m" + random.nextInt(id)));
      }
      writer.commit();
    }
  }

  private static Map<String, Integer> perTermCounts(Query restriction) throws IOException {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (String t : TERMS) {
      out.put(
          t,
          searcher.count(
              new BooleanQuery.Builder()
                  .add(new TermQuery(new Term("text", t)), Occur.MUST)
                  .add(restriction, Occur.FILTER)
                  .build()));
    }
    return out;
  }
}

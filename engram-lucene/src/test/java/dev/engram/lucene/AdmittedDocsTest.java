package dev.engram.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
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

  @Test
  void countsEachTermWithinTheRestrictionAsAQueryPerTermWould() throws IOException {
    Random random = new Random(20261206);
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer =
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

      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        assertThat(reader.leaves()).hasSizeGreaterThan(1);
        assertThat(reader.numDeletedDocs()).isPositive();
        List<String> terms = new ArrayList<>(WORDS);
        terms.add("absent");
        terms.add("tea");
        for (Query restriction :
            List.of(
                new TermQuery(new Term("user", "ann")),
                new TermQuery(new Term("user", "sliver")),
                new TermQuery(new Term("user", "nobody")),
                new MatchAllDocsQuery())) {
          AdmittedDocs admitted = AdmittedDocs.of(searcher, restriction);

          assertThat(admitted.count()).isEqualTo(searcher.count(restriction));
          assertThat(admitted.frequencies("text", terms))
              .containsExactlyEntriesOf(perTermCounts(searcher, restriction, terms));
        }
        assertThat(AdmittedDocs.of(searcher, new TermQuery(new Term("user", "sliver"))).count())
            .isBetween(1, 20);
      }
    }
  }

  private static Map<String, Integer> perTermCounts(
      IndexSearcher searcher, Query restriction, List<String> terms) throws IOException {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (String t : terms) {
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

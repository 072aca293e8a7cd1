package dev.engram.lucene;

import static dev.engram.lucene.Docs.hits;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.lucene.analysis.core.WhitespaceAnalyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * {@link HitIds} on a real Lucene index of several segments: the ids of hits in any order, the same
 * strings when read again, right across deletions and new segments, the slots of closed segments
 * given back, and a segment past the bound read without being kept.
 */
class HitIdsTest {
  private static Document memory(String id) {
    Document d = new Document();
    d.add(new StringField("key", id, Field.Store.NO));
    d.add(new BinaryDocValuesField(IndexFields.ID, new BytesRef(id)));
    return d;
  }

  /** Two segments of ten memories each: m0..m9, then m10..m19. */
  private static IndexWriter twoSegments(Directory dir) throws IOException {
    IndexWriter writer =
        new IndexWriter(
            dir,
            new IndexWriterConfig(new WhitespaceAnalyzer()).setMergePolicy(NoMergePolicy.INSTANCE));
    for (int segment = 0; segment < 2; segment++) {
      for (int i = 0; i < 10; i++) {
        writer.addDocument(memory("m" + (segment * 10 + i)));
      }
      writer.commit();
    }
    return writer;
  }

  @Test
  void idsReadAgainAreTheSameStringsAndStayRightAsSegmentsChange() throws IOException {
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer = twoSegments(dir)) {
      HitIds ids = new HitIds();
      DirectoryReader first = DirectoryReader.open(dir);
      assertThat(first.leaves()).hasSize(2);

      String[] read = ids.read(first, hits(15, 3, 9, 10));
      assertThat(read).containsExactly("m15", "m3", "m9", "m10");
      String[] again = ids.read(first, hits(3, 15));
      assertThat(again[0]).isSameAs(read[1]);
      assertThat(again[1]).isSameAs(read[0]);
      assertThat(ids.slotsHeld()).isEqualTo(20);

      // a deletion in the first segment and a third segment: the first's kept ids stay right
      writer.deleteDocuments(new Term("key", "m3"));
      writer.addDocument(memory("m20"));
      writer.commit();
      DirectoryReader second = DirectoryReader.openIfChanged(first);
      String[] later = ids.read(second, hits(20, 9));
      assertThat(later).containsExactly("m20", "m9");
      assertThat(later[1]).isSameAs(read[2]);
      assertThat(ids.slotsHeld()).isEqualTo(21);

      // merged into one segment and the old readers closed: the old segments' slots are given back
      writer.getConfig().setMergePolicy(new TieredMergePolicy());
      writer.forceMerge(1);
      writer.commit();
      DirectoryReader merged = DirectoryReader.openIfChanged(second);
      first.close();
      second.close();
      assertThat(ids.slotsHeld()).isZero();
      assertThat(merged.leaves()).hasSize(1);
      String[] fromMerged = ids.read(merged, hits(IntStream.range(0, 20).toArray()));
      List<String> expected = new ArrayList<>();
      IntStream.rangeClosed(0, 20).filter(i -> i != 3).forEach(i -> expected.add("m" + i));
      assertThat(fromMerged).containsExactlyInAnyOrderElementsOf(expected); // m3 expunged
      assertThat(ids.slotsHeld()).isEqualTo(20);
      merged.close();
      assertThat(ids.slotsHeld()).isZero();
    }
  }

  @Test
  void aSegmentPastTheBoundIsReadWithoutBeingKept() throws IOException {
    try (Directory dir = new ByteBuffersDirectory()) {
      twoSegments(dir).close();
      DirectoryReader reader = DirectoryReader.open(dir);
      HitIds ids = new HitIds(15);

      String[] read = ids.read(reader, hits(2, 12));
      assertThat(read).containsExactly("m2", "m12");
      assertThat(ids.slotsHeld()).isEqualTo(10); // the first segment's ten; the second's past 15

      String[] again = ids.read(reader, hits(12, 2));
      assertThat(again).containsExactly("m12", "m2");
      assertThat(again[1]).isSameAs(read[0]);
      assertThat(again[0]).isNotSameAs(read[1]);
      reader.close();
    }
  }

  @Test
  void locateFindsTheLiveDocumentsOfIdsReadBeforeAndNamesTheRest() throws IOException {
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer = twoSegments(dir)) {
      HitIds ids = new HitIds();
      DirectoryReader first = DirectoryReader.open(dir);
      ids.read(first, hits(3, 15));

      HitIds.Located located = ids.locate(first, List.of("m15", "m4", "m3", "none"));
      assertThat(located.ids()).containsExactly("m3", "m15"); // by segment
      assertThat(located.docs()).extracting(d -> d.doc).containsExactly(3, 15);
      assertThat(located.unknown()).containsExactly("m4", "none");

      // m3 written again: its old document deleted, its new one in a third segment, not read yet
      writer.updateDocument(new Term("key", "m3"), memory("m3"));
      writer.commit();
      DirectoryReader second = DirectoryReader.openIfChanged(first);
      assertThat(ids.locate(second, List.of("m3", "m15")).unknown()).containsExactly("m3");
      ids.read(second, hits(20));
      HitIds.Located again = ids.locate(second, List.of("m3", "m15"));
      assertThat(again.ids()).containsExactly("m15", "m3");
      assertThat(again.docs()).extracting(d -> d.doc).containsExactly(15, 20);
      assertThat(again.unknown()).isEmpty();
      first.close();
      second.close();
    }
  }
}

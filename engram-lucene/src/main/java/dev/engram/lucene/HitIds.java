package dev.engram.lucene;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.ScoreDoc;

/**
 * Reads the memory ids of search hits from doc values: hits are visited in document order
 * (doc-value iterators only move forward), which avoids decompressing a stored-fields block per
 * hit.
 */
final class HitIds {
  private HitIds() {}

  /** The id of each hit, in the order of {@code hits}. */
  static String[] read(IndexReader reader, ScoreDoc[] hits) throws IOException {
    Integer[] order = docOrder(hits);
    List<LeafReaderContext> leaves = reader.leaves();
    String[] ids = new String[hits.length];
    int leafIndex = -1;
    BinaryDocValues values = null;
    for (int i : order) {
      int doc = hits[i].doc;
      int sub = ReaderUtil.subIndex(doc, leaves);
      LeafReaderContext leaf = leaves.get(sub);
      if (sub != leafIndex) {
        leafIndex = sub;
        values = leaf.reader().getBinaryDocValues(IndexFields.ID);
      }
      if (values == null || !values.advanceExact(doc - leaf.docBase)) {
        throw new IllegalStateException(
            "search hit " + doc + " has no " + IndexFields.ID + " doc value");
      }
      ids[i] = values.binaryValue().utf8ToString();
    }
    return ids;
  }

  /**
   * The positions of {@code hits} in document order, the order in which a leaf's doc values and
   * vector values can be read (their iterators only move forward).
   */
  static Integer[] docOrder(ScoreDoc[] hits) {
    Integer[] order = new Integer[hits.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> hits[i].doc));
    return order;
  }
}

package dev.engram.lucene;

import dev.engram.spi.VectorMath;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.ScoreDoc;

/**
 * Reads the vectors of given documents from the index's vector values and scores them against a
 * query vector. Documents are visited in document order ({@link HitIds#docOrder}), since a leaf's
 * vector values only move forward; the vectors are the floats the memory store holds, so the
 * cosines equal those computed from the memories' records.
 */
final class IndexedVectors {
  private IndexedVectors() {}

  /**
   * The cosine to {@code vector} of each document of {@code docs} that has a vector in {@code
   * field}, by its memory id ({@code ids}, in the order of {@code docs}).
   */
  static Map<String, Double> cosines(
      IndexReader reader, ScoreDoc[] docs, String[] ids, String field, float[] vector)
      throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    Map<String, Double> out = new HashMap<>();
    int leafIndex = -1;
    FloatVectorValues values = null;
    for (int i : HitIds.docOrder(docs)) {
      int doc = docs[i].doc;
      int sub = ReaderUtil.subIndex(doc, leaves);
      LeafReaderContext leaf = leaves.get(sub);
      if (sub != leafIndex) {
        leafIndex = sub;
        values = leaf.reader().getFloatVectorValues(field);
      }
      if (values == null) {
        continue;
      }
      int target = doc - leaf.docBase;
      int at = values.docID() >= target ? values.docID() : values.advance(target);
      if (at == target) {
        out.put(ids[i], VectorMath.cosine(vector, values.vectorValue()));
      }
    }
    return out;
  }
}

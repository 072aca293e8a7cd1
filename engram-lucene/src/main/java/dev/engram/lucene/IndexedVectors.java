package dev.engram.lucene;

import dev.engram.spi.VectorMath;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.ScoreDoc;

/**
 * Reads the vectors of given documents from the index's vector values and scores them against a
 * query vector. Documents are visited in document order ({@link DocOrder}), since a leaf's vector
 * values only move forward; the vectors are the floats the memory store holds, so the cosines equal
 * those computed from the memories' records.
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
    Map<String, Double> out = new HashMap<>();
    DocOrder.walk(
        reader,
        docs,
        leaf -> leaf.reader().getFloatVectorValues(field),
        (values, position, doc) -> {
          if (values != null) {
            int at = values.docID() >= doc ? values.docID() : values.advance(doc);
            if (at == doc) {
              out.put(ids[position], VectorMath.cosine(vector, values.vectorValue()));
            }
          }
        });
    return out;
  }
}

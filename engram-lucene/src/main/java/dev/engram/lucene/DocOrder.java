package dev.engram.lucene;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.ScoreDoc;

/**
 * Walks given documents of a reader in document order, the order in which a leaf's doc values,
 * vector values and matching documents can be read (their iterators only move forward): what a walk
 * reads in a leaf is opened once, when it reaches the leaf's first document. The hits' ids ({@link
 * HitIds}), their vectors ({@link IndexedVectors}) and whether a restriction admits them ({@link
 * AdmittedDocs#admits}) are read so.
 */
final class DocOrder {
  private DocOrder() {}

  /** What a walk reads in one leaf, opened when the walk reaches it. */
  @FunctionalInterface
  interface LeafOpener<S> {
    S open(LeafReaderContext leaf) throws IOException;
  }

  /** One document of the walk: its position among the given ones and its number in its leaf. */
  @FunctionalInterface
  interface Visitor<S> {
    void visit(S leaf, int position, int doc) throws IOException;
  }

  /** Visits each of {@code docs} (documents of {@code reader}) in document order. */
  static <S> void walk(IndexReader reader, ScoreDoc[] docs, LeafOpener<S> open, Visitor<S> visitor)
      throws IOException {
    List<LeafReaderContext> leaves = reader.leaves();
    int leafIndex = -1;
    int docBase = 0;
    S opened = null;
    for (int i : positions(docs)) {
      int doc = docs[i].doc;
      int sub = ReaderUtil.subIndex(doc, leaves);
      if (sub != leafIndex) {
        leafIndex = sub;
        LeafReaderContext leaf = leaves.get(sub);
        docBase = leaf.docBase;
        opened = open.open(leaf);
      }
      visitor.visit(opened, i, doc - docBase);
    }
  }

  /**
   * The positions of {@code hits} in document order; hits of one document in the order given.
   * Sorted as packed numbers (the document above the position), without boxing.
   */
  static int[] positions(ScoreDoc[] hits) {
    long[] packed = new long[hits.length];
    for (int i = 0; i < packed.length; i++) {
      packed[i] = ((long) hits[i].doc << 32) | i;
    }
    Arrays.sort(packed);
    int[] order = new int[packed.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = (int) packed[i];
    }
    return order;
  }
}

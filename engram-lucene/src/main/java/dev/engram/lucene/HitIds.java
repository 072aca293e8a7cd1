package dev.engram.lucene;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.ScoreDoc;

/**
 * Reads the memory ids of search hits from doc values, and keeps those read per segment. Hits are
 * visited in document order (doc-value iterators only move forward), which avoids decompressing a
 * stored-fields block per hit. A segment's documents never change their ids, so each id read is
 * kept in an array over the segment's documents until the segment is closed: a search reads the
 * same scope's memories again and again (its dense lists and its keyword lists, and the next
 * search), and the kept id is then the very string the search's maps already hold, which they find
 * without comparing characters. At most {@link #MAX_DOCUMENTS} documents' slots are held, over all
 * open segments; past that a segment's ids are read as before, and a closed segment's slots are
 * given back. Thread-safe: a slot is written with an immutable string, which any thread may read or
 * write again with the same text.
 */
final class HitIds {
  /**
   * The most documents whose ids are kept, over all open segments: 8 bytes a document for the slots
   * (4 MiB) and about 80 for each id read.
   */
  static final long MAX_DOCUMENTS = 1L << 19;

  private final Map<IndexReader.CacheKey, String[]> bySegment = new ConcurrentHashMap<>();
  private final AtomicLong slots = new AtomicLong();
  private final long maxDocuments;

  /** Keeps the ids of at most {@link #MAX_DOCUMENTS} documents. */
  HitIds() {
    this(MAX_DOCUMENTS);
  }

  /** Keeps the ids of at most {@code maxDocuments} documents, over all open segments. */
  HitIds(long maxDocuments) {
    this.maxDocuments = maxDocuments;
  }

  /** The id of each hit, in the order of {@code hits}. */
  String[] read(IndexReader reader, ScoreDoc[] hits) throws IOException {
    int[] order = docOrder(hits);
    List<LeafReaderContext> leaves = reader.leaves();
    String[] ids = new String[hits.length];
    int leafIndex = -1;
    BinaryDocValues values = null;
    String[] kept = null;
    for (int i : order) {
      int doc = hits[i].doc;
      int sub = ReaderUtil.subIndex(doc, leaves);
      LeafReaderContext leaf = leaves.get(sub);
      if (sub != leafIndex) {
        leafIndex = sub;
        values = leaf.reader().getBinaryDocValues(IndexFields.ID);
        kept = kept(leaf.reader()).orElse(null);
      }
      int local = doc - leaf.docBase;
      String id = kept == null ? null : kept[local];
      if (id == null) {
        if (values == null || !values.advanceExact(local)) {
          throw new IllegalStateException(
              "search hit " + doc + " has no " + IndexFields.ID + " doc value");
        }
        id = values.binaryValue().utf8ToString();
        if (kept != null) {
          kept[local] = id;
        }
      }
      ids[i] = id;
    }
    return ids;
  }

  /** How many documents' slots are held now, over all segments. */
  long slotsHeld() {
    return slots.get();
  }

  /**
   * The segment's kept ids, made on its first read if the bound allows; empty for a segment that is
   * not kept.
   */
  private Optional<String[]> kept(LeafReader segment) {
    IndexReader.CacheHelper helper = segment.getCoreCacheHelper();
    if (helper == null) {
      return Optional.empty();
    }
    IndexReader.CacheKey key = helper.getKey();
    String[] known = bySegment.get(key);
    if (known != null) {
      return Optional.of(known);
    }
    int documents = segment.maxDoc();
    if (slots.addAndGet(documents) > maxDocuments) {
      slots.addAndGet(-documents);
      return Optional.empty();
    }
    String[] made = new String[documents];
    String[] raced = bySegment.putIfAbsent(key, made);
    if (raced != null) {
      slots.addAndGet(-documents);
      return Optional.of(raced);
    }
    helper.addClosedListener(
        closed -> {
          if (bySegment.remove(closed) != null) {
            slots.addAndGet(-documents);
          }
        });
    return Optional.of(made);
  }

  /**
   * The positions of {@code hits} in document order, the order in which a leaf's doc values and
   * vector values can be read (their iterators only move forward); hits of one document in the
   * order given. Sorted as packed numbers (the document above the position), without boxing.
   */
  static int[] docOrder(ScoreDoc[] hits) {
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

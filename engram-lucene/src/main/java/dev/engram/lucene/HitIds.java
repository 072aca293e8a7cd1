package dev.engram.lucene;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.Bits;

/**
 * Reads the memory ids of search hits from doc values, and keeps those read per segment. Hits are
 * visited in document order ({@link DocOrder}: doc-value iterators only move forward), which avoids
 * decompressing a stored-fields block per hit. A segment's documents never change their ids, so
 * each id read is kept in an array over the segment's documents until the segment is closed: a
 * search reads the same scope's memories again and again (its dense lists and its keyword lists,
 * and the next search), and the kept id is then the very string the search's maps already hold,
 * which they find without comparing characters. Each segment also keeps, for each id read, its
 * document, so that a search that asks for memories by id (the keyword candidates' cosines, {@link
 * #locate}) finds the documents of those its hits brought without looking their keys up in the
 * terms dictionary. At most {@link #MAX_DOCUMENTS} documents' slots are held, over all open
 * segments; past that a segment's ids are read as before, and a closed segment's slots are given
 * back. Thread-safe: a slot is written with an immutable string, which any thread may read or write
 * again with the same text.
 */
final class HitIds {
  /**
   * The most documents whose ids are kept, over all open segments: 8 bytes a document for the slots
   * (4 MiB) and about 130 for each id read (the string and its entry in the segment's documents).
   */
  static final long MAX_DOCUMENTS = 1L << 19;

  /** A segment's kept ids: by document, and the document of each id read. */
  private static final class Kept {
    private final String[] ids;
    private final Map<String, Integer> docs = new ConcurrentHashMap<>();

    Kept(int documents) {
      ids = new String[documents];
    }

    String id(int doc) {
      return ids[doc];
    }

    /** The document of {@code id}, if it was read. */
    Integer doc(String id) {
      return docs.get(id);
    }

    void put(int doc, String id) {
      ids[doc] = id;
      docs.put(id, doc);
    }
  }

  /**
   * Documents found by id ({@link #locate}): {@code docs} and their {@code ids} side by side, and
   * the ids not found.
   */
  record Located(List<ScoreDoc> docs, List<String> ids, List<String> unknown) {}

  private final Map<IndexReader.CacheKey, Kept> bySegment = new ConcurrentHashMap<>();
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
    String[] ids = new String[hits.length];
    DocOrder.walk(
        reader,
        hits,
        leaf ->
            new LeafIds(
                leaf.reader().getBinaryDocValues(IndexFields.ID),
                kept(leaf.reader()).orElse(null),
                leaf.docBase),
        (leaf, position, doc) -> ids[position] = leaf.id(doc));
    return ids;
  }

  /** A leaf's ids: its kept ones, else read from its doc values (and then kept). */
  private record LeafIds(BinaryDocValues values, Kept kept, int docBase) {
    String id(int doc) throws IOException {
      String id = kept == null ? null : kept.id(doc);
      if (id != null) {
        return id;
      }
      if (values == null || !values.advanceExact(doc)) {
        throw new IllegalStateException(
            "search hit " + (docBase + doc) + " has no " + IndexFields.ID + " doc value");
      }
      id = values.binaryValue().utf8ToString();
      if (kept != null) {
        kept.put(doc, id);
      }
      return id;
    }
  }

  /**
   * A live document of {@code reader} for each of {@code ids} whose document an earlier {@link
   * #read} kept, and the ids for which none is known. An id names a memory within its tenant only,
   * so a document found may be another tenant's: the caller checks what it finds against its
   * restriction and looks up by key what that rejects.
   */
  Located locate(IndexReader reader, Collection<String> ids) {
    Set<String> unknown = new LinkedHashSet<>(ids);
    List<ScoreDoc> docs = new ArrayList<>();
    List<String> found = new ArrayList<>();
    for (LeafReaderContext leaf : reader.leaves()) {
      IndexReader.CacheHelper helper = leaf.reader().getCoreCacheHelper();
      Kept kept = helper == null ? null : bySegment.get(helper.getKey());
      if (kept == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      for (var it = unknown.iterator(); it.hasNext(); ) {
        String id = it.next();
        Integer doc = kept.doc(id);
        if (doc != null && (live == null || live.get(doc))) {
          docs.add(new ScoreDoc(leaf.docBase + doc, Float.NaN));
          found.add(id);
          it.remove();
        }
      }
    }
    return new Located(List.copyOf(docs), List.copyOf(found), List.copyOf(unknown));
  }

  /** How many documents' slots are held now, over all segments. */
  long slotsHeld() {
    return slots.get();
  }

  /**
   * The segment's kept ids, made on its first read if the bound allows; empty for a segment that is
   * not kept.
   */
  private Optional<Kept> kept(LeafReader segment) {
    IndexReader.CacheHelper helper = segment.getCoreCacheHelper();
    if (helper == null) {
      return Optional.empty();
    }
    IndexReader.CacheKey key = helper.getKey();
    Kept known = bySegment.get(key);
    if (known != null) {
      return Optional.of(known);
    }
    int documents = segment.maxDoc();
    if (slots.addAndGet(documents) > maxDocuments) {
      slots.addAndGet(-documents);
      return Optional.empty();
    }
    Kept made = new Kept(documents);
    Kept raced = bySegment.putIfAbsent(key, made);
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
}

package dev.engram.lucene;

import dev.engram.DimensionMismatchException;
import dev.engram.StorageException;
import dev.engram.ValidationException;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleUnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.IOUtils;

/**
 * The {@link SearchIndex} on Apache Lucene: one document per memory with an HNSW vector (dot product of unit
 * vectors), the text for BM25, and filter fields (layout in {@link IndexFields}, filter semantics in
 * {@link FilterQueries}).
 *
 * <p><b>Text analysis.</b> Memory texts and keyword queries go through Lucene's {@link EnglishAnalyzer}: standard
 * tokenisation, possessive removal, lower-casing, English stop words and Porter stemming, so "likes hiking" finds
 * "liked to hike". Query text is analysed into terms that are OR-ed, never parsed as query syntax, so any
 * characters are safe; text of stop words only finds nothing.
 *
 * <p><b>State.</b> Each {@link #commit} records the applied generation and sequence number as Lucene commit user
 * data; {@link #state()} reports the last committed pair (0 and 0 for a new index). An index directory whose vectors
 * have another dimension, or that cannot be read, is recreated empty at {@link #open} (with a warning): the index
 * is derived data, and the engine rebuilds it from the store.
 *
 * <p><b>Visibility and threading.</b> Thread-safe. Writes are serialised; searches run concurrently on
 * near-real-time searchers, refreshed at the start of the first search after a change (not on every write, which
 * would cost ingest speed), so a change is visible to every search that starts after {@link #apply} returns.
 */
public final class LuceneSearchIndex implements SearchIndex {
  static final String GENERATION = "engram.generation";
  static final String SEQ = "engram.seq";
  /** Distinct analysed terms of a keyword query beyond this are ignored. */
  static final int MAX_QUERY_TERMS = 256;

  private final Path path;
  private final int dimension;
  private final Directory directory;
  private final Analyzer analyzer;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicLong changes = new AtomicLong();
  private final AtomicLong refreshed = new AtomicLong();
  private volatile long generation;
  private volatile long seq;
  private volatile long committedGeneration;
  private volatile long committedSeq;
  private volatile boolean closed;

  private LuceneSearchIndex(Path path, int dimension, Directory directory, Analyzer analyzer, IndexWriter writer)
      throws IOException {
    this.path = path;
    this.dimension = dimension;
    this.directory = directory;
    this.analyzer = analyzer;
    this.writer = writer;
    this.searchers = new SearcherManager(writer, new SearcherFactory());
    Map<String, String> data = new java.util.HashMap<>();
    Iterable<Map.Entry<String, String>> live = writer.getLiveCommitData();
    if (live != null) {
      live.forEach(e -> data.put(e.getKey(), e.getValue()));
    }
    this.generation = this.committedGeneration = parse(data, GENERATION);
    this.seq = this.committedSeq = parse(data, SEQ);
  }

  /**
   * Opens (or creates) the index in {@code indexDir} for vectors of {@code dimension} dimensions.
   *
   * @throws IllegalArgumentException if {@code dimension} is not between 1 and
   *                                  {@value WideHnswVectorsFormat#MAX_DIMENSIONS}
   * @throws StorageException         if the directory cannot be used, or another writer holds it
   */
  public static LuceneSearchIndex open(Path indexDir, int dimension) {
    Objects.requireNonNull(indexDir, "indexDir");
    if (dimension < 1 || dimension > WideHnswVectorsFormat.MAX_DIMENSIONS) {
      throw new IllegalArgumentException("dimension: must be between 1 and " + WideHnswVectorsFormat.MAX_DIMENSIONS
          + ", got " + dimension);
    }
    Directory dir = null;
    Analyzer analyzer = new EnglishAnalyzer();
    IndexWriter writer = null;
    try {
      Files.createDirectories(indexDir);
      dir = new MMapDirectory(indexDir);
      writer = IndexOpening.openWriter(dir, indexDir, dimension, analyzer);
      return new LuceneSearchIndex(indexDir, dimension, dir, analyzer, writer);
    } catch (LockObtainFailedException e) {
      IOUtils.closeWhileHandlingException(writer, dir, analyzer);
      throw new StorageException("the search index at " + indexDir + " is locked by another writer", e);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(writer, dir, analyzer);
      throw e instanceof StorageException se ? se
          : new StorageException("could not open the search index at " + indexDir + ": " + e.getMessage(), e);
    }
  }

  /** The vector dimension this index holds. */
  public int dimension() {
    return dimension;
  }

  @Override
  public IndexState state() {
    ensureOpen();
    IndexSearcher searcher = acquire();
    try {
      return new IndexState(committedGeneration, committedSeq, searcher.getIndexReader().numDocs());
    } finally {
      release(searcher);
    }
  }

  @Override
  public void apply(List<IndexOp> ops, long seq, long generation) {
    Objects.requireNonNull(ops, "ops");
    writeLock.lock();
    try {
      ensureOpen();
      for (IndexOp op : ops) {
        if (op instanceof IndexOp.Upsert up) {
          StoredMemory m = up.memory();
          checkDimension("memory " + m.id() + " has an embedding", m.embeddingView().length);
          writer.updateDocument(new Term(IndexFields.KEY, IndexFields.key(m.tenant(), m.id())),
              MemoryDocuments.build(m));
        } else if (op instanceof IndexOp.Remove rm) {
          writer.deleteDocuments(new Term(IndexFields.KEY, IndexFields.key(rm.tenant(), rm.id())));
        } else if (op instanceof IndexOp.RemoveTenant rt) {
          writer.deleteDocuments(new Term(IndexFields.TENANT, rt.tenant()));
        }
      }
      this.seq = seq;
      this.generation = generation;
    } catch (IOException e) {
      throw new StorageException("could not write to the search index at " + path, e);
    } finally {
      changes.incrementAndGet();
      writeLock.unlock();
    }
  }

  @Override
  public void clear(long generation) {
    writeLock.lock();
    try {
      ensureOpen();
      writer.deleteAll();
      this.generation = generation;
      this.seq = 0;
    } catch (IOException e) {
      throw new StorageException("could not clear the search index at " + path, e);
    } finally {
      changes.incrementAndGet();
      writeLock.unlock();
    }
  }

  @Override
  public void commit() {
    writeLock.lock();
    try {
      ensureOpen();
      commitLocked();
    } catch (IOException e) {
      throw new StorageException("could not commit the search index at " + path, e);
    } finally {
      writeLock.unlock();
    }
  }

  private void commitLocked() throws IOException {
    long g = generation;
    long s = seq;
    writer.setLiveCommitData(Map.of(GENERATION, Long.toString(g), SEQ, Long.toString(s)).entrySet());
    writer.commit();
    committedGeneration = g;
    committedSeq = s;
  }

  /** Scores are cosine similarities: Lucene's dot-product score is {@code (1 + dot) / 2}, mapped back. */
  @Override
  public List<Candidate> dense(IndexQuery query, float[] vector, int k) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(vector, "vector");
    checkDimension("the query vector has", vector.length);
    checkK(k);
    Query knn = new KnnFloatVectorQuery(IndexFields.VECTOR, vector, k, restriction(query));
    return search(knn, k, score -> 2.0 * score - 1.0);
  }

  @Override
  public List<Candidate> keyword(IndexQuery query, String text, int k) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(text, "text");
    checkK(k);
    List<String> terms = QueryTerms.analyze(analyzer, IndexFields.TEXT, text, MAX_QUERY_TERMS);
    if (terms.isEmpty()) {
      return List.of();
    }
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    for (String t : terms) {
      any.add(new TermQuery(new Term(IndexFields.TEXT, t)), Occur.SHOULD);
    }
    Query q = new BooleanQuery.Builder()
        .add(any.build(), Occur.MUST)
        .add(restriction(query), Occur.FILTER)
        .build();
    return search(q, k, score -> score);
  }

  private List<Candidate> search(Query query, int k, DoubleUnaryOperator score) {
    ensureOpen();
    IndexSearcher searcher = acquire();
    try {
      ScoreDoc[] hits = searcher.search(query, k).scoreDocs;
      String[] ids = HitIds.read(searcher.getIndexReader(), hits);
      List<Candidate> out = new ArrayList<>(hits.length);
      for (int i = 0; i < hits.length; i++) {
        out.add(new Candidate(ids[i], score.applyAsDouble(hits[i].score)));
      }
      return out;
    } catch (IndexSearcher.TooManyClauses e) {
      throw tooManyClauses();
    } catch (IOException e) {
      throw new StorageException("could not search the index at " + path, e);
    } finally {
      release(searcher);
    }
  }

  private static Query restriction(IndexQuery query) {
    try {
      return FilterQueries.restriction(query);
    } catch (IndexSearcher.TooManyClauses e) {
      throw tooManyClauses();
    }
  }

  private static ValidationException tooManyClauses() {
    return new ValidationException("filters", "has too many conditions for the search index (the limit is "
        + IndexSearcher.getMaxClauseCount() + " clauses)");
  }

  /** A searcher that sees every change applied before this call. */
  private IndexSearcher acquire() {
    try {
      long pending = changes.get();
      if (refreshed.get() < pending) {
        searchers.maybeRefreshBlocking();
        refreshed.accumulateAndGet(pending, Math::max);
      }
      return searchers.acquire();
    } catch (IOException e) {
      throw new StorageException("could not refresh the search index at " + path, e);
    }
  }

  private void release(IndexSearcher searcher) {
    try {
      searchers.release(searcher);
    } catch (IOException e) {
      throw new StorageException("could not release a searcher of the index at " + path, e);
    }
  }

  private void checkDimension(String what, int length) {
    if (length != dimension) {
      throw new DimensionMismatchException(what + " of " + length + " dimensions; the search index at " + path
          + " holds vectors of " + dimension + " dimensions");
    }
  }

  private static void checkK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k: must be at least 1, got " + k);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the search index at " + path + " is closed");
    }
  }

  private static long parse(Map<String, String> data, String key) {
    String v = data.get(key);
    try {
      return v == null ? 0 : Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new StorageException("the search index commit data has a malformed " + key + ": '" + v + "'", e);
    }
  }

  /** Commits, then releases the index. Idempotent. */
  @Override
  public void close() {
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        commitLocked();
      } finally {
        IOUtils.close(searchers, writer, directory, analyzer);
      }
    } catch (IOException e) {
      throw new StorageException("could not close the search index at " + path, e);
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public String toString() {
    return "LuceneSearchIndex[" + path + ", " + dimension + " dimensions]";
  }
}

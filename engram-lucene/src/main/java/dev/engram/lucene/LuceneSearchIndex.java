package dev.engram.lucene;

import dev.engram.DimensionMismatchException;
import dev.engram.StorageException;
import dev.engram.ValidationException;
import dev.engram.spi.CommonTerms;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * The {@link SearchIndex} on Apache Lucene: one document per memory with an HNSW vector (dot
 * product of unit vectors), the text for BM25, and filter fields (layout in {@link IndexFields},
 * filter semantics in {@link FilterQueries}).
 *
 * <p><b>Text analysis.</b> Memory texts and keyword queries go through Lucene's {@link
 * EnglishAnalyzer}: standard tokenisation, possessive removal, lower-casing, English stop words and
 * Porter stemming, so "likes hiking" finds "liked to hike". Query text is analysed into terms that
 * are OR-ed, never parsed as query syntax, so any characters are safe; text of stop words only
 * finds nothing. A keyword search follows {@link CommonTerms}: it counts each term's documents
 * among the memories it may return (one count per term, on the searcher it then runs on) and, where
 * some terms are common and others not, a match must hold one of the others.
 *
 * <p><b>State.</b> Each {@link #commit} records the applied generation and sequence number as
 * Lucene commit user data; {@link #state()} reports the last committed pair (0 and 0 for a new
 * index).
 *
 * <p><b>Damage.</b> The index is derived data: the engine rebuilds it from the store. {@link #open}
 * verifies an existing index (every file's checksum, the vector dimension, an empty {@code
 * write.lock}); an index that fails, or whose writer cannot be opened, is moved aside to the
 * sibling directory {@code <name>.broken} (replacing an older one, so at most one damaged copy is
 * kept, with a warning in the log) and an empty index takes its place. {@link #recreate} does the
 * same at run time, after an index failure.
 *
 * <p><b>Visibility and threading.</b> Thread-safe. Writes are serialised; searches run concurrently
 * on near-real-time searchers, refreshed at the start of the first search after a change (not on
 * every write, which would cost ingest speed), so a change is visible to every search that starts
 * after {@link #apply} returns.
 */
public final class LuceneSearchIndex implements SearchIndex {
  static final String GENERATION = "engram.generation";
  static final String SEQ = "engram.seq";

  /** Distinct analysed terms of a keyword query beyond this are ignored. */
  static final int MAX_QUERY_TERMS = 256;

  private final Path path;
  private final int dimension;
  private final Analyzer analyzer;

  /** The open directory, writer and searchers; replaced by {@link #recreate}. */
  private volatile IndexOpening.Handles handles;

  private final ReentrantLock writeLock = new ReentrantLock();

  /** The ids of the hits read so far, kept per segment. */
  private final HitIds hitIds = new HitIds();

  /**
   * Searches and state reads hold the read side, so {@link #recreate} and {@link #close} (write
   * side) never close the searchers under a running search.
   */
  private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private final AtomicLong changes = new AtomicLong();
  private final AtomicLong refreshed = new AtomicLong();

  /** What was written since the searchers' last refresh, for {@link #repeatCandidates}. */
  private final UnrefreshedWrites unrefreshed;

  private volatile long generation;
  private volatile long seq;
  private volatile long committedGeneration;
  private volatile long committedSeq;
  private volatile boolean closed;

  private LuceneSearchIndex(
      Path path, int dimension, Analyzer analyzer, IndexOpening.Handles handles) {
    this.path = path;
    this.dimension = dimension;
    this.analyzer = analyzer;
    this.unrefreshed =
        new UnrefreshedWrites(
            text -> QueryTerms.analyze(analyzer, IndexFields.TEXT, text, Integer.MAX_VALUE));
    useHandles(handles);
  }

  /**
   * Starts using freshly opened handles: reads the generation and sequence of their last commit.
   */
  private void useHandles(IndexOpening.Handles handles) {
    this.handles = handles;
    Map<String, String> data = new java.util.HashMap<>();
    Iterable<Map.Entry<String, String>> live = handles.writer().getLiveCommitData();
    if (live != null) {
      live.forEach(e -> data.put(e.getKey(), e.getValue()));
    }
    this.generation = this.committedGeneration = parse(data, GENERATION);
    this.seq = this.committedSeq = parse(data, SEQ);
  }

  /**
   * Opens (or creates) the index in {@code indexDir} for vectors of {@code dimension} dimensions.
   *
   * @throws IllegalArgumentException if {@code dimension} is not between 1 and {@value
   *     WideHnswVectorsFormat#MAX_DIMENSIONS}
   * @throws StorageException if the directory cannot be used, or another writer holds it
   */
  public static LuceneSearchIndex open(Path indexDir, int dimension) {
    Objects.requireNonNull(indexDir, "indexDir");
    if (dimension < 1 || dimension > WideHnswVectorsFormat.MAX_DIMENSIONS) {
      throw new IllegalArgumentException(
          "dimension: must be between 1 and "
              + WideHnswVectorsFormat.MAX_DIMENSIONS
              + ", got "
              + dimension);
    }
    Analyzer analyzer = new EnglishAnalyzer();
    IndexOpening.Handles handles = null;
    try {
      handles = IndexOpening.open(indexDir, dimension, analyzer);
      return new LuceneSearchIndex(indexDir, dimension, analyzer, handles);
    } catch (LockObtainFailedException e) {
      IOUtils.closeWhileHandlingException(analyzer);
      throw new StorageException(
          "the search index at " + indexDir + " is locked by another writer", e);
    } catch (IOException | RuntimeException e) {
      if (handles != null) {
        handles.closeDamaged();
      }
      IOUtils.closeWhileHandlingException(analyzer);
      throw e instanceof StorageException se
          ? se
          : new StorageException(
              "could not open the search index at " + indexDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Sets this index's directory aside as damaged (to the sibling {@code <name>.broken}, replacing
   * an older one) and continues with an empty index there: generation 0, sequence 0, no documents.
   * The old writer is rolled back and closed without committing; searches wait for the swap.
   *
   * @throws StorageException if the directory cannot be moved or the new index cannot be created
   */
  @Override
  public void recreate() {
    writeLock.lock();
    lifecycle.writeLock().lock();
    try {
      ensureOpen();
      handles.closeDamaged();
      IndexOpening.setAside(path, "recreated on request, after an index failure");
      useHandles(IndexOpening.open(path, dimension, analyzer));
      unrefreshed.blocked(changes.incrementAndGet());
    } catch (IOException e) {
      throw new StorageException(
          "could not recreate the search index at " + path + ": " + e.getMessage(), e);
    } finally {
      lifecycle.writeLock().unlock();
      writeLock.unlock();
    }
  }

  /**
   * How many writes the searchers do not see yet and {@link #repeatCandidates} finds without them.
   * For tests.
   */
  int unrefreshedWrites() {
    return unrefreshed.size();
  }

  /** The vector dimension this index holds. */
  public int dimension() {
    return dimension;
  }

  @Override
  public IndexState state() {
    return withFreshSearcher(
        "could not read the state of",
        searcher ->
            new IndexState(committedGeneration, committedSeq, searcher.getIndexReader().numDocs()));
  }

  @Override
  public void apply(List<IndexOp> ops, long seq, long generation) {
    Objects.requireNonNull(ops, "ops");
    writeLock.lock();
    long change = changes.get() + 1;
    try {
      ensureOpen();
      for (IndexOp op : ops) {
        if (op instanceof IndexOp.Upsert up) {
          StoredMemory m = up.memory();
          checkDimension("memory " + m.id() + " has an embedding", m.embeddingView().length);
          if (m.contextEmbeddingView().length > 0) {
            checkDimension(
                "memory " + m.id() + " has a context embedding", m.contextEmbeddingView().length);
          }
          handles
              .writer()
              .updateDocument(
                  new Term(IndexFields.KEY, IndexFields.key(m.tenant(), m.id())),
                  MemoryDocuments.build(m));
          unrefreshed.written(change, m.tenant(), m.item());
        } else if (op instanceof IndexOp.Remove rm) {
          handles
              .writer()
              .deleteDocuments(new Term(IndexFields.KEY, IndexFields.key(rm.tenant(), rm.id())));
          unrefreshed.removed(rm.tenant(), rm.id());
        } else if (op instanceof IndexOp.RemoveTenant rt) {
          handles.writer().deleteDocuments(new Term(IndexFields.TENANT, rt.tenant()));
          unrefreshed.removedTenant(rt.tenant());
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
      unrefreshed.blocked(changes.get() + 1);
      handles.writer().deleteAll();
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
      // The commit has just written every buffered document: opening them costs little now, and
      // keeps the
      // searchers (and the segment merges their refreshes set off) in step with writes that no
      // search asked for.
      refresh();
    } catch (IOException e) {
      throw new StorageException("could not commit the search index at " + path, e);
    } finally {
      writeLock.unlock();
    }
  }

  private void commitLocked() throws IOException {
    long g = generation;
    long s = seq;
    IndexWriter writer = handles.writer();
    writer.setLiveCommitData(
        Map.of(GENERATION, Long.toString(g), SEQ, Long.toString(s)).entrySet());
    writer.commit();
    committedGeneration = g;
    committedSeq = s;
  }

  /**
   * Over {@link IndexFields#VECTOR} or {@link IndexFields#CONTEXT_VECTOR}. Scores are cosine
   * similarities: Lucene's dot-product score is {@code (1 + dot) / 2}, mapped back.
   */
  @Override
  public List<Candidate> dense(IndexQuery query, IndexField field, float[] vector, int k) {
    Objects.requireNonNull(field, "field");
    return nearest(vectorField(field), query, vector, k);
  }

  /**
   * Where every segment scores the restriction's documents exactly ({@link ScopedKnnQuery}), all
   * the targets in one pass over those documents ({@link ExactNeighbours}): the same lists as
   * {@link #dense} gives one at a time. Otherwise one graph walk per target.
   */
  @Override
  public List<List<Candidate>> denseEach(
      IndexQuery query, IndexField field, List<float[]> vectors, int k) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(field, "field");
    for (float[] vector : vectors) {
      Objects.requireNonNull(vector, "vector");
      checkDimension("the query vector has", vector.length);
    }
    checkK(k);
    String name = vectorField(field);
    Query restriction = restriction(query);
    return exactNeighbours(name, restriction, vectors, k)
        .orElseGet(
            () -> vectors.stream().map(vector -> graphWalk(name, restriction, vector, k)).toList());
  }

  /**
   * The {@code k} nearest vectors of {@code field} among the documents {@code query} admits, scored
   * by cosine: where every segment scores them exactly, from {@link ExactNeighbours}, which scores
   * several documents at a time, else from {@link ScopedKnnQuery}; the same list either way.
   */
  private List<Candidate> nearest(String field, IndexQuery query, float[] vector, int k) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(vector, "vector");
    checkDimension("the query vector has", vector.length);
    checkK(k);
    Query restriction = restriction(query);
    return exactNeighbours(field, restriction, List.of(vector), k)
        .map(lists -> lists.get(0))
        .orElseGet(() -> graphWalk(field, restriction, vector, k));
  }

  /**
   * The {@code k} nearest vectors of {@code field} among the documents {@code restriction} admits,
   * scored by cosine, from {@link ScopedKnnQuery}: where {@link #exactNeighbours} answers nothing,
   * as a segment admits more than it scores exactly.
   */
  private List<Candidate> graphWalk(String field, Query restriction, float[] vector, int k) {
    return search(
        new ScopedKnnQuery(field, vector, k, restriction), k, LuceneSearchIndex::cosineOfScore);
  }

  /**
   * Each of {@code vectors}' {@code k} nearest vectors of {@code field} among the documents {@code
   * restriction} admits, scored by cosine, from {@link ExactNeighbours}; empty where a segment
   * admits more than it scores exactly.
   */
  private Optional<List<List<Candidate>>> exactNeighbours(
      String field, Query restriction, List<float[]> vectors, int k) {
    return withFreshSearcher(
        "could not search",
        searcher -> {
          Optional<ScoreDoc[][]> hits =
              ExactNeighbours.search(searcher, restriction, field, vectors, k);
          if (hits.isEmpty()) {
            return Optional.empty();
          }
          List<List<Candidate>> out = new ArrayList<>(vectors.size());
          for (ScoreDoc[] each : hits.get()) {
            out.add(candidates(searcher.getIndexReader(), each, LuceneSearchIndex::cosineOfScore));
          }
          return Optional.of(List.copyOf(out));
        });
  }

  /**
   * Read from the documents' vector values, of the documents {@code query}'s restriction admits, so
   * another tenant's or scope's memory is never scored. A memory whose document an earlier search
   * read ({@link HitIds#locate}: the keyword candidates, whose cosines a search asks for) is found
   * by it, checked against the restriction; the others are found by their keys within the
   * restriction, which looks each up in every segment's terms.
   */
  @Override
  public Map<String, Double> similarities(
      IndexQuery query, IndexField field, float[] vector, Collection<String> ids) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(vector, "vector");
    checkDimension("the query vector has", vector.length);
    if (ids.isEmpty()) {
      return Map.of();
    }
    Query restriction = restriction(query);
    return withFreshSearcher(
        "could not read vectors from",
        searcher -> {
          IndexReader reader = searcher.getIndexReader();
          HitIds.Located known = hitIds.locate(reader, ids);
          boolean[] admitted =
              AdmittedDocs.admits(searcher, restriction, known.docs().toArray(ScoreDoc[]::new));
          List<ScoreDoc> docs = new ArrayList<>();
          List<String> found = new ArrayList<>();
          List<String> byKey = new ArrayList<>(known.unknown());
          for (int i = 0; i < admitted.length; i++) {
            if (admitted[i]) {
              docs.add(known.docs().get(i));
              found.add(known.ids().get(i));
            } else { // another tenant's memory of the same id, or out of scope
              byKey.add(known.ids().get(i));
            }
          }
          if (!byKey.isEmpty()) {
            ScoreDoc[] looked = byKeys(searcher, query.tenant(), byKey, restriction);
            docs.addAll(List.of(looked));
            found.addAll(List.of(hitIds.read(reader, looked)));
          }
          return IndexedVectors.cosines(
              reader,
              docs.toArray(ScoreDoc[]::new),
              found.toArray(String[]::new),
              vectorField(field),
              vector);
        });
  }

  /** The documents {@code restriction} admits of the memories {@code ids} of {@code tenant}. */
  private static ScoreDoc[] byKeys(
      IndexSearcher searcher, String tenant, List<String> ids, Query restriction)
      throws IOException {
    Set<BytesRef> keys = new HashSet<>();
    ids.forEach(id -> keys.add(new BytesRef(IndexFields.key(tenant, id))));
    Query byKey =
        new BooleanQuery.Builder()
            .add(new TermInSetQuery(IndexFields.KEY, keys), Occur.MUST)
            .add(restriction, Occur.FILTER)
            .build();
    return searcher.search(byKey, keys.size()).scoreDocs;
  }

  /** The index field that holds the words of {@code field}. */
  private static String textField(IndexField field) {
    return switch (field) {
      case TEXT -> IndexFields.TEXT;
      case CONTEXT -> IndexFields.CONTEXT;
    };
  }

  /** The index field that holds the embeddings of {@code field}. */
  private static String vectorField(IndexField field) {
    return switch (field) {
      case TEXT -> IndexFields.VECTOR;
      case CONTEXT -> IndexFields.CONTEXT_VECTOR;
    };
  }

  /**
   * Both: every document holds its memory's vector and, where there is one, its context embedding.
   */
  @Override
  public Set<IndexField> denseFields() {
    return Set.of(IndexField.TEXT, IndexField.CONTEXT);
  }

  /**
   * BM25 over {@link IndexFields#TEXT} or the memories' source contexts ({@link
   * IndexFields#CONTEXT}, analysed as their texts).
   */
  @Override
  public List<Candidate> keyword(IndexQuery query, IndexField field, String text, int k) {
    Objects.requireNonNull(field, "field");
    return commonTermsSearch(query, textField(field), keywordTerms(query, text, k), k);
  }

  /**
   * Counts each term's documents among the memories {@code query} admits, on a fresh searcher: one
   * count per term and one of the memories.
   */
  @Override
  public Optional<TermCounts> termCounts(IndexQuery query, IndexField field, String text) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(text, "text");
    String name = textField(field);
    List<String> terms = QueryTerms.analyze(analyzer, IndexFields.TEXT, text, MAX_QUERY_TERMS);
    Query restriction = restriction(query);
    return withFreshSearcher(
        "could not count terms in",
        searcher -> {
          AdmittedDocs admitted = AdmittedDocs.of(searcher, restriction);
          return Optional.of(new TermCounts(admitted.count(), admitted.frequencies(name, terms)));
        });
  }

  /**
   * BM25 over {@code field} under the rule of {@link CommonTerms}: each term's document frequency
   * and the number of memories are counted among the memories {@code query} admits, on the searcher
   * the search then runs on.
   */
  private List<Candidate> commonTermsSearch(
      IndexQuery query, String field, List<String> terms, int k) {
    if (terms.isEmpty()) {
      return List.of();
    }
    Query restriction = restriction(query);
    return search(
        searcher -> {
          AdmittedDocs admitted = AdmittedDocs.of(searcher, restriction);
          int memories = admitted.count();
          if (!CommonTerms.applies(memories)) {
            return keywordQuery(restriction, field, terms, Optional.empty());
          }
          AdmittedDocs.TermLookup lookup = admitted.lookUp(field, terms);
          return keywordQuery(
              restriction,
              lookup::query,
              terms,
              CommonTerms.required(lookup.frequencies(), memories));
        },
        k);
  }

  /**
   * Without a refresh: the best {@code k} BM25 matches the searchers saw at their last refresh,
   * then the {@code k} memories written since that match {@code query} and hold the largest share
   * of the terms of {@code text} ({@link UnrefreshedWrites}), each id once. The offline extractor
   * calls this once per fact between writes, where a refresh (a new segment written and opened)
   * cost more than the rest of the look-up. Falls back to {@link #keyword} when the writes since
   * the last refresh cannot be told apart (more than {@value UnrefreshedWrites#CAPACITY}, a cleared
   * index) or the query has a filter.
   */
  @Override
  public List<Candidate> repeatCandidates(IndexQuery query, String text, int k) {
    List<String> terms = keywordTerms(query, text, k);
    if (terms.isEmpty()) {
      return List.of();
    }
    Optional<List<Candidate>> recent = unrefreshed.matching(query, terms, k);
    if (recent.isEmpty()) {
      return search(keywordQuery(query, IndexFields.TEXT, terms), k, score -> score, true);
    }
    Map<String, Candidate> out = new LinkedHashMap<>();
    for (Candidate c :
        search(keywordQuery(query, IndexFields.TEXT, terms), k, score -> score, false)) {
      out.put(c.id(), c);
    }
    for (Candidate c : recent.get()) {
      out.putIfAbsent(c.id(), c);
    }
    return List.copyOf(out.values());
  }

  /**
   * Checks a keyword search's arguments and analyses its text: its terms, none for text of stop
   * words only.
   */
  private List<String> keywordTerms(IndexQuery query, String text, int k) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(text, "text");
    checkK(k);
    return QueryTerms.analyze(analyzer, IndexFields.TEXT, text, MAX_QUERY_TERMS);
  }

  private static Query keywordQuery(IndexQuery query, String field, List<String> terms) {
    return keywordQuery(restriction(query), field, terms, Optional.empty());
  }

  /**
   * Any of {@code terms} in {@code field}, scored by BM25, within {@code restriction}; with {@code
   * required}, a match must hold one of those terms (the others then only add to its score).
   */
  private static Query keywordQuery(
      Query restriction, String field, List<String> terms, Optional<Set<String>> required) {
    return keywordQuery(restriction, t -> new TermQuery(new Term(field, t)), terms, required);
  }

  /** As above, each term's query made by {@code termQuery}. */
  private static Query keywordQuery(
      Query restriction,
      Function<String, TermQuery> termQuery,
      List<String> terms,
      Optional<Set<String>> required) {
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    BooleanQuery.Builder oneOf = new BooleanQuery.Builder();
    for (String t : terms) {
      TermQuery q = termQuery.apply(t);
      if (required.isPresent() && required.get().contains(t)) {
        oneOf.add(q, Occur.SHOULD);
      } else {
        any.add(q, Occur.SHOULD);
      }
    }
    BooleanQuery.Builder out = new BooleanQuery.Builder();
    if (required.isPresent()) {
      out.add(oneOf.build(), Occur.MUST).add(any.build(), Occur.SHOULD);
    } else {
      out.add(any.build(), Occur.MUST);
    }
    return out.add(restriction, Occur.FILTER).build();
  }

  private List<Candidate> search(Query query, int k, DoubleUnaryOperator score) {
    return search(query, k, score, true);
  }

  /** {@code fresh}: refresh first if anything was written since the last refresh. */
  private List<Candidate> search(Query query, int k, DoubleUnaryOperator score, boolean fresh) {
    lifecycle.readLock().lock();
    try {
      return searchOpen(query, k, score, fresh);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** A read of a searcher. */
  @FunctionalInterface
  private interface SearcherRead<T> {
    T apply(IndexSearcher searcher) throws IOException;
  }

  /**
   * What {@code read} gives on a searcher that sees every change applied so far, under the read
   * lock; an I/O failure becomes a {@link StorageException} that says what {@code failed} (as in
   * "could not count terms in") and names the index, and a query over the clause limit a {@link
   * ValidationException}.
   */
  private <T> T withFreshSearcher(String failed, SearcherRead<T> read) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      IndexSearcher searcher = acquire();
      try {
        return read.apply(searcher);
      } catch (IndexSearcher.TooManyClauses e) {
        throw tooManyClauses();
      } catch (IOException e) {
        throw new StorageException(failed + " the index at " + path, e);
      } finally {
        release(searcher);
      }
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** A query that the searcher it runs on helps build (it may count documents first). */
  @FunctionalInterface
  private interface SearcherQuery {
    Query build(IndexSearcher searcher) throws IOException;
  }

  /**
   * A fresh search whose query is built with the searcher it runs on; scores are kept as they are.
   */
  private List<Candidate> search(SearcherQuery query, int k) {
    lifecycle.readLock().lock();
    try {
      return searchOpen(query, k, score -> score, true);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private List<Candidate> searchOpen(Query query, int k, DoubleUnaryOperator score, boolean fresh) {
    return searchOpen(searcher -> query, k, score, fresh);
  }

  private List<Candidate> searchOpen(
      SearcherQuery query, int k, DoubleUnaryOperator score, boolean fresh) {
    ensureOpen();
    IndexSearcher searcher = fresh ? acquire() : acquireAsIs();
    try {
      return candidates(
          searcher.getIndexReader(), searcher.search(query.build(searcher), k).scoreDocs, score);
    } catch (IndexSearcher.TooManyClauses e) {
      throw tooManyClauses();
    } catch (IOException e) {
      throw new StorageException("could not search the index at " + path, e);
    } finally {
      release(searcher);
    }
  }

  /** Lucene's dot-product score {@code (1 + cosine) / 2} mapped back to the cosine. */
  private static double cosineOfScore(double score) {
    return 2.0 * score - 1.0;
  }

  /** The hits as candidates, in order, each scored {@code score} of Lucene's score. */
  private List<Candidate> candidates(IndexReader reader, ScoreDoc[] hits, DoubleUnaryOperator score)
      throws IOException {
    String[] ids = hitIds.read(reader, hits);
    List<Candidate> out = new ArrayList<>(hits.length);
    for (int i = 0; i < hits.length; i++) {
      out.add(new Candidate(ids[i], score.applyAsDouble(hits[i].score)));
    }
    return out;
  }

  private static Query restriction(IndexQuery query) {
    try {
      return FilterQueries.restriction(query);
    } catch (IndexSearcher.TooManyClauses e) {
      throw tooManyClauses();
    }
  }

  private static ValidationException tooManyClauses() {
    return new ValidationException(
        "filters",
        "has too many conditions for the search index (the limit is "
            + IndexSearcher.getMaxClauseCount()
            + " clauses)");
  }

  /** A searcher that sees every change applied before this call. */
  private IndexSearcher acquire() {
    try {
      refresh();
      return handles.searchers().acquire();
    } catch (IOException e) {
      throw new StorageException("could not refresh the search index at " + path, e);
    }
  }

  /** Refreshes the searchers if anything was applied since their last refresh. */
  private void refresh() throws IOException {
    long pending = changes.get();
    if (refreshed.get() < pending) {
      handles.searchers().maybeRefreshBlocking();
      refreshed.accumulateAndGet(pending, Math::max);
      unrefreshed.refreshedThrough(pending);
    }
  }

  /** The searcher of the last refresh, which may miss the latest writes. */
  private IndexSearcher acquireAsIs() {
    try {
      return handles.searchers().acquire();
    } catch (IOException e) {
      throw new StorageException("could not search the index at " + path, e);
    }
  }

  private void release(IndexSearcher searcher) {
    try {
      handles.searchers().release(searcher);
    } catch (IOException e) {
      throw new StorageException("could not release a searcher of the index at " + path, e);
    }
  }

  private void checkDimension(String what, int length) {
    if (length != dimension) {
      throw new DimensionMismatchException(
          what
              + " of "
              + length
              + " dimensions; the search index at "
              + path
              + " holds vectors of "
              + dimension
              + " dimensions");
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
      throw new StorageException(
          "the search index commit data has a malformed " + key + ": '" + v + "'", e);
    }
  }

  /**
   * Commits, then releases the index. Idempotent. If the commit fails (a damaged index), the writer
   * is rolled back and closed all the same, and the failure is thrown: the next open finds the
   * index behind or damaged and it is caught up or rebuilt from the record.
   */
  @Override
  public void close() {
    writeLock.lock();
    lifecycle.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      try {
        commitLocked();
        handles.close();
      } catch (IOException | RuntimeException e) {
        handles.closeDamaged();
        throw new StorageException(
            "could not close the search index at " + path + " cleanly: " + e, e);
      } finally {
        IOUtils.closeWhileHandlingException(analyzer);
      }
    } finally {
      lifecycle.writeLock().unlock();
      writeLock.unlock();
    }
  }

  @Override
  public String toString() {
    return "LuceneSearchIndex[" + path + ", " + dimension + " dimensions]";
  }
}

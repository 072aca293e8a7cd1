package dev.engram.spi;

import java.io.Closeable;
import java.util.List;

/**
 * A derived index over the memories of a {@link MemoryStore}: dense vectors, full text and filter fields. It can
 * always be rebuilt from the store; it records which store generation and sequence number it reflects.
 *
 * <p><b>Visibility and durability.</b> Changes given to {@link #apply} are visible to searches that start after
 * it returns. They become durable only at {@link #commit}; after a crash the engine replays the store's change
 * feed from {@link #state()}.
 *
 * <p><b>Threading.</b> Thread-safe; the engine calls {@link #apply} from one thread at a time, in sequence order.
 */
public interface SearchIndex extends Closeable {

  /**
   * True (the default) for an index derived from the record, which the engine keeps in step by replaying the change
   * feed and rebuilds when it is damaged. False for an index that reads the record itself (PostgreSQL): it needs no
   * synchronisation, and {@link #apply}, {@link #clear} and {@link #commit} do nothing.
   */
  default boolean isDerived() {
    return true;
  }

  /** What the index reflects as of its last commit, plus its live document count. */
  IndexState state();

  /** Applies upserts and removals, and records that the index now reflects {@code seq} of {@code generation}. */
  void apply(List<IndexOp> ops, long seq, long generation);

  /** Removes every document and records {@code generation} with sequence 0. */
  void clear(long generation);

  /** Makes everything applied so far durable. */
  void commit();

  /**
   * Replaces a damaged index with an empty one (generation 0, sequence 0, no documents), which the engine then
   * rebuilds from the store. The engine calls it when the index fails while it is brought up to date, applied,
   * committed or searched; an implementation may keep the damaged data aside for diagnosis. The default cannot
   * recreate anything and throws {@link UnsupportedOperationException}: the engine then reports the original
   * failure.
   */
  default void recreate() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot be recreated");
  }

  /**
   * Nearest neighbours of {@code vector} among the memories matching {@code query}, best first; scores are cosine
   * similarities.
   */
  List<Candidate> dense(IndexQuery query, float[] vector, int k);

  /**
   * BM25 matches of {@code text} among the memories matching {@code query}, best first; scores are BM25. A memory
   * that matches only terms common among the memories matching {@code query} is no match ({@link CommonTerms}).
   */
  List<Candidate> keyword(IndexQuery query, String text, int k);

  /**
   * BM25 matches of {@code text} in the memories' source contexts ({@link StoredMemory#context}) among the memories
   * matching {@code query}, best first; scores are BM25 (the engine adds half of each to the memory's text score in
   * the keyword signal). {@link CommonTerms} applies as in {@link #keyword}, with the frequencies counted in the
   * contexts. The default finds none: an index that does not keep the contexts leaves the search's
   * context step ({@link dev.engram.Ranking#context}) without effect.
   */
  default List<Candidate> contextKeyword(IndexQuery query, String text, int k) {
    return List.of();
  }

  /**
   * True if the index keeps the memories' context embeddings ({@link StoredMemory#contextEmbedding}) and searches
   * them in {@link #contextDense}. The default is false: the engine then refuses to embed contexts
   * ({@code Engram.Builder#contextEmbeddings}), whose vectors such an index would drop.
   */
  default boolean searchesContextEmbeddings() {
    return false;
  }

  /**
   * Nearest neighbours of {@code vector} among the context embeddings ({@link StoredMemory#contextEmbedding}) of the
   * memories matching {@code query}, best first; scores are cosine similarities; a memory without a context
   * embedding is never among them. The default finds none (an index that does not keep them).
   */
  default List<Candidate> contextDense(IndexQuery query, float[] vector, int k) {
    return List.of();
  }

  /**
   * Memories matching {@code query} that share words with {@code text}, for a check whether {@code text} repeats a
   * stored memory, where an index whose writes become visible at a cost (a near-real-time refresh) need not pay
   * it: the {@code k} best keyword matches among what its searches see, and the {@code k} memories written since
   * that hold the largest share of the terms of {@code text}; so up to {@code 2k}, in no comparable score order. It
   * may include a memory changed or removed since, so callers read the records. The rule of {@link CommonTerms}
   * need not apply: a repeat shares the rare words of {@code text} too. The default is {@link #keyword}.
   */
  default List<Candidate> repeatCandidates(IndexQuery query, String text, int k) {
    return keyword(query, text, k);
  }

  /**
   * What an index reflects.
   *
   * @param generation the store generation
   * @param seq        the last store sequence number applied and committed
   * @param documents  how many documents the index holds now
   */
  record IndexState(long generation, long seq, long documents) {}

  /** A memory id with a score. */
  record Candidate(String id, double score) {}
}

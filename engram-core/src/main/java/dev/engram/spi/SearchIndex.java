package dev.engram.spi;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A derived index over the memories of a {@link MemoryStore}: dense vectors, full text and filter
 * fields. It can always be rebuilt from the store; it records which store generation and sequence
 * number it reflects.
 *
 * <p><b>Visibility and durability.</b> Changes given to {@link #apply} are visible to searches that
 * start after it returns. They become durable only at {@link #commit}; after a crash the engine
 * replays the store's change feed from {@link #state()}.
 *
 * <p><b>Threading.</b> Thread-safe; the engine calls {@link #apply} from one thread at a time, in
 * sequence order.
 */
public interface SearchIndex extends Closeable {

  /**
   * True (the default) for an index derived from the record, which the engine keeps in step by
   * replaying the change feed and rebuilds when it is damaged. False for an index that reads the
   * record itself (PostgreSQL): it needs no synchronisation, and {@link #apply}, {@link #clear} and
   * {@link #commit} do nothing.
   */
  default boolean isDerived() {
    return true;
  }

  /** What the index reflects as of its last commit, plus its live document count. */
  IndexState state();

  /**
   * Applies upserts and removals, and records that the index now reflects {@code seq} of {@code
   * generation}.
   */
  void apply(List<IndexOp> ops, long seq, long generation);

  /** Removes every document and records {@code generation} with sequence 0. */
  void clear(long generation);

  /** Makes everything applied so far durable. */
  void commit();

  /**
   * Replaces a damaged index with an empty one (generation 0, sequence 0, no documents), which the
   * engine then rebuilds from the store. The engine calls it when the index fails while it is
   * brought up to date, applied, committed or searched; an implementation may keep the damaged data
   * aside for diagnosis. The default cannot recreate anything and throws {@link
   * UnsupportedOperationException}: the engine then reports the original failure.
   */
  default void recreate() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot be recreated");
  }

  /**
   * Nearest neighbours of {@code vector} among the embeddings of {@code field} of the memories
   * matching {@code query}, best first; scores are cosine similarities. A memory without that
   * embedding (a memory whose context was not embedded) is never among them; a field whose
   * embeddings the index does not keep ({@link #denseFields}) finds none.
   */
  List<Candidate> dense(IndexQuery query, IndexField field, float[] vector, int k);

  /**
   * {@link #dense} for each of {@code vectors}, in their order: the same neighbours with the same
   * scores, each list as {@link #dense} gives it alone. The engine asks for many at once where it
   * needs the neighbours of many memories (the ranking step hubs' densities), so that an index can
   * answer them in one pass over the memories {@code query} matches; the default asks {@link
   * #dense} for each.
   */
  default List<List<Candidate>> denseEach(
      IndexQuery query, IndexField field, List<float[]> vectors, int k) {
    List<List<Candidate>> out = new ArrayList<>(vectors.size());
    for (float[] vector : vectors) {
      out.add(dense(query, field, vector, k));
    }
    return List.copyOf(out);
  }

  /**
   * BM25 matches of {@code text} in the words of {@code field} of the memories matching {@code
   * query}, best first; scores are BM25. A memory that matches only terms common among the memories
   * matching {@code query}, counted in that field, is no match ({@link CommonTerms}). Over {@link
   * IndexField#CONTEXT} the engine adds half of each score to the memory's text score in the
   * keyword signal; an index that does not keep the contexts finds none there, and the search's
   * context step ({@link dev.engram.Ranking#context}) is then without effect.
   */
  List<Candidate> keyword(IndexQuery query, IndexField field, String text, int k);

  /**
   * The cosine similarity to {@code vector} of the embedding of {@code field} of each of the
   * memories {@code ids} that match {@code query} and that the index holds with that embedding, by
   * id: for a search that needs the cosines of memories the dense list did not bring (the keyword
   * list's), read from the index instead of from their records. Ids it cannot answer for are left
   * out, and the engine reads their records; the default answers for none.
   */
  default Map<String, Double> similarities(
      IndexQuery query, IndexField field, float[] vector, Collection<String> ids) {
    return Map.of();
  }

  /**
   * The fields whose embeddings the index keeps and {@link #dense} searches. The default is {@link
   * IndexField#TEXT} only: the engine then refuses to embed contexts ({@code
   * Engram.Builder#contextEmbeddings}), whose vectors such an index would drop.
   */
  default Set<IndexField> denseFields() {
    return Set.of(IndexField.TEXT);
  }

  /**
   * Memories matching {@code query} that share words with {@code text}, for a check whether {@code
   * text} repeats a stored memory, where an index whose writes become visible at a cost (a
   * near-real-time refresh) need not pay it: the {@code k} best keyword matches among what its
   * searches see, and the {@code k} memories written since that hold the largest share of the terms
   * of {@code text}; so up to {@code 2k}, in no comparable score order. It may include a memory
   * changed or removed since, so callers read the records. The rule of {@link CommonTerms} need not
   * apply: a repeat shares the rare words of {@code text} too. The default is {@link #keyword} over
   * {@link IndexField#TEXT}.
   */
  default List<Candidate> repeatCandidates(IndexQuery query, String text, int k) {
    return keyword(query, IndexField.TEXT, text, k);
  }

  /**
   * How many of the memories {@code query} admits hold each term of {@code text} in {@code field}
   * (the text analysed as {@link #keyword} analyses it), and how many memories it admits: the
   * document frequencies by which a search weighs a query's words (a word most memories hold says
   * little about what the query is about; a word none holds, that the query may be about something
   * else). Empty (the default) for an index that does not count them: the search then does without
   * ({@link dev.engram.Ranking#NAMES}).
   */
  default Optional<TermCounts> termCounts(IndexQuery query, IndexField field, String text) {
    return Optional.empty();
  }

  /**
   * Document frequencies within a search's reach ({@link #termCounts}).
   *
   * @param memories how many memories the search may return (its tenant, scope and filter)
   * @param frequencies each distinct analysed term of the text, in order, with the number of those
   *     memories holding it
   */
  record TermCounts(int memories, Map<String, Integer> frequencies) {
    public TermCounts {
      if (memories < 0) {
        throw new IllegalArgumentException("memories must be 0 or more, was " + memories);
      }
      frequencies =
          java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(frequencies));
    }
  }

  /**
   * What an index reflects.
   *
   * @param generation the store generation
   * @param seq the last store sequence number applied and committed
   * @param documents how many documents the index holds now
   */
  record IndexState(long generation, long seq, long documents) {}

  /** A memory id with a score. */
  record Candidate(String id, double score) {}
}

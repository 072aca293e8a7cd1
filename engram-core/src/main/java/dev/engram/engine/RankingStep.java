package dev.engram.engine;

import dev.engram.MemoryItem;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.graph.ScoredRelation;
import dev.engram.spi.GraphStore;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One ranking step of a search: a {@link #name} that a {@link dev.engram.Ranking} turns on, the
 * {@link #phase} it runs in, what it does to the candidates (the hooks of that phase; each does
 * nothing unless the step overrides it), and what it adds to a hit's {@code explain} ({@link
 * RankingPass#explain}, and {@link #explainMove} for a step that moves candidates in the fused
 * ranking). {@link RankingSteps} holds every step in the order they run; a search runs those its
 * request's ranking names ({@link RankingPass}). A step holds no state of its own: what one search
 * needs is in its {@link RankingPass}.
 *
 * <p>A step acts mainly in its phase; one may act in a later phase too (the step context searches
 * the source contexts by keyword before fusion, adds the context embeddings' dense list after it,
 * and reads a memory's relevance from its context embedding when the hits are chosen).
 */
interface RankingStep {
  /** Where in a search a step acts, in the order a search runs them. */
  enum Phase {
    /**
     * The candidate lists before fusion: how the dense lists (of memories and of the graph's
     * relations) and the keyword list are read ({@link #dense}, {@link #relations}, {@link
     * #keyword}).
     */
    CANDIDATES,
    /**
     * After fusion: further lists join the fused ranking, candidates are lifted or moved ({@link
     * #fused}).
     */
    FUSED,
    /**
     * The choice of hits from the fused ranking: whether there are any ({@link #empties}), how a
     * memory's relevance is read ({@link #byContext}), and which hits come first ({@link #defers}).
     */
    HITS
  }

  /**
   * Reads a dense list of {@code k} candidates: the index, or the steps of the chain before this
   * one.
   */
  @FunctionalInterface
  interface DenseRead<T> {
    List<T> read(int k);
  }

  /**
   * The name a {@link dev.engram.Ranking} gives this step: lower-case letters, digits and hyphens.
   */
  String name();

  /** The phase this step acts in (first). */
  Phase phase();

  /**
   * {@link Phase#CANDIDATES}: the {@code k} best memories by similarity of {@code field} to the
   * query, read through {@code next} (which may be asked for more than {@code k}).
   */
  default List<Candidate> dense(
      RankingPass pass, HubDensities.Field field, int k, DenseRead<Candidate> next) {
    return next.read(k);
  }

  /**
   * {@link Phase#CANDIDATES}: the {@code k} relations of the search's scope in {@code graph} whose
   * facts are most similar to the query, read through {@code next}.
   */
  default List<ScoredRelation> relations(
      RankingPass pass, GraphStore graph, int k, DenseRead<ScoredRelation> next) {
    return next.read(k);
  }

  /**
   * {@link Phase#CANDIDATES}: the keyword list, given the list of the memories' texts for the
   * query's {@code words} (the query without its question words).
   */
  default List<Candidate> keyword(RankingPass pass, String words, int k, List<Candidate> list) {
    return list;
  }

  /** {@link Phase#FUSED}: the fused ranking, changed; the given one stays as it was. */
  default List<Fused> fused(RankingPass pass, List<Fused> fused) {
    return fused;
  }

  /**
   * {@link Phase#HITS}: true if the search returns nothing, memories and relations alike, given the
   * records of the fusion's first candidates and {@code queryRelevance}, the best own relevance
   * among them.
   */
  default boolean empties(RankingPass pass, List<StoredMemory> first, double queryRelevance) {
    return false;
  }

  /**
   * {@link Phase#HITS}: true if a memory's own relevance is also read from its context embedding.
   */
  default boolean byContext(RankingPass pass) {
    return false;
  }

  /**
   * {@link Phase#HITS}: true if {@code item} is kept only after the hits that are not deferred,
   * given the source ids of the hits kept so far.
   */
  default boolean defers(RankingPass pass, MemoryItem item, Set<String> covered) {
    return false;
  }

  /**
   * What a hit's {@code explain} says of this step having moved it in the fused ranking ({@link
   * Phase#FUSED}): its ranks (from 1; 0 for a candidate the step brought in) and fused scores
   * before and after the step.
   */
  default String explainMove(int rankBefore, int rankAfter, double before, double after) {
    return String.format(
        Locale.ROOT,
        "fused rank %s -> %d, fused score %.4f -> %.4f",
        rankBefore == 0 ? "none" : Integer.toString(rankBefore),
        rankAfter,
        before,
        after);
  }
}

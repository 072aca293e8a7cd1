package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.MemoryItem;
import dev.engram.SearchRequest;
import dev.engram.analysis.QueryAnalyzer;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.engine.RankingStep.DenseRead;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One search's run of its ranking steps: what the steps share (the request, its index query, the
 * query's embedding, the candidate pool, the records read so far) and the pipeline through them,
 * phase by phase. The dense and relation lists are read through the chain of the steps' {@link
 * RankingStep#dense} and {@link RankingStep#relations} (the first step nearest the index), the
 * keyword list through each step's {@link RankingStep#keyword}, the fused ranking through each
 * step's {@link RankingStep#fused}, all in the order the steps run ({@link RankingSteps}). With
 * {@code explain}, it collects what the steps say of each memory. One per search; not thread-safe.
 */
final class RankingPass {
  final Engine engine;

  /** The language of the query: its keywords, names and periods. */
  final QueryAnalyzer analyzer;

  final SearchRequest request;
  final IndexQuery query;

  /** The query's embedding: set before any step reads it (the keyword lists never do). */
  private final QueryVector vector;

  /**
   * The query's content words ({@link QueryAnalyzer#contentWords}), whose share in a memory the
   * calibrated relevance reads.
   */
  final List<String> contentWords;

  /** How many candidates each list reads. */
  final int pool;

  final SearchRecords records;
  private final List<RankingStep> steps;

  /** What the steps said of each memory, by id then step name; null without {@code explain}. */
  private final Map<String, Map<String, String>> explained;

  RankingPass(
      Engine engine,
      QueryAnalyzer analyzer,
      List<RankingStep> steps,
      SearchRequest request,
      IndexQuery query,
      QueryVector vector,
      int pool,
      SearchRecords records) {
    this.engine = engine;
    this.analyzer = analyzer;
    this.steps = List.copyOf(steps);
    this.request = request;
    this.query = query;
    this.vector = vector;
    this.contentWords = List.copyOf(analyzer.contentWords(request.query()));
    this.pool = pool;
    this.records = records;
    this.explained = request.explain() ? new HashMap<>() : null;
  }

  /** The query's embedding, L2-normalised. */
  float[] vector() {
    return vector.get();
  }

  /**
   * The fused ranking of the dense list and the {@link #keyword} list, changed by the steps after
   * fusion.
   */
  List<Fused> candidates(List<Candidate> keyword) {
    List<Fused> fused = fuse(engine.config.fusion(), dense(HubDensities.Field.OWN, pool), keyword);
    for (RankingStep step : steps) {
      List<Fused> before = fused;
      fused = step.fused(this, fused);
      if (explained != null && fused != before) {
        explainMoves(step, before, fused);
      }
    }
    return fused;
  }

  /**
   * The dense and keyword lists fused by {@code fusion}; under {@link Fusion#COSINE} the cosines of
   * the keyword-only candidates come from the index's vectors ({@link
   * dev.engram.spi.SearchIndex#similarities}), or from their records, read through {@link
   * #records}, where the index does not keep them.
   */
  private List<Fused> fuse(Fusion fusion, List<Candidate> dense, List<Candidate> keyword) {
    if (fusion != Fusion.COSINE) {
      return RankFusion.fuse(fusion, dense, keyword);
    }
    return RankFusion.fuseByCosine(dense, keyword, this::cosines, RankFusion.COSINE_WEIGHT);
  }

  /**
   * The embeddings' cosines to the query of the memories {@code ids}, by id: from the index where
   * it answers (no record read, which costs a search more than the cosines), else from their
   * records.
   */
  private Map<String, Double> cosines(List<String> ids) {
    Map<String, Double> out =
        new HashMap<>(engine.index.similarities(query, IndexField.TEXT, vector(), ids));
    List<String> unanswered = ids.stream().filter(id -> !out.containsKey(id)).toList();
    if (!unanswered.isEmpty()) {
      for (StoredMemory m : records.get(unanswered)) {
        out.put(m.id(), Relevance.cosine(vector(), m.embeddingView()));
      }
    }
    return out;
  }

  /** The {@code k} memories nearest the query by {@code field}, read through the steps. */
  List<Candidate> dense(HubDensities.Field field, int k) {
    DenseRead<Candidate> read = n -> HubDensities.nearest(engine.index, query, field, vector(), n);
    for (RankingStep step : steps) {
      DenseRead<Candidate> next = read;
      read = n -> step.dense(this, field, n, next);
    }
    return read.read(k);
  }

  /**
   * The {@code k} relations of the scope in {@code graph} with facts nearest the query, read
   * through the steps.
   */
  List<ScoredRelation> relations(GraphStore graph, TimeView view, int k) {
    DenseRead<ScoredRelation> read =
        n -> graph.similarRelations(query.tenant(), query.scope(), vector(), n, view);
    for (RankingStep step : steps) {
      DenseRead<ScoredRelation> next = read;
      read = n -> step.relations(this, graph, n, next);
    }
    return read.read(k);
  }

  /**
   * The keyword list: the memories' texts by BM25 of the query's keywords (without its question
   * words, {@link QueryAnalyzer#keywords}), then the steps'. It needs only the query's words, so a
   * search may read it on another thread while it embeds the query ({@link QueryEmbeddings}); what
   * it and the steps' keyword hooks record in this pass (its records, explain) is seen by the
   * search's thread once it has the list.
   */
  List<Candidate> keyword() {
    String words = analyzer.keywords(request.query());
    List<Candidate> list = engine.index.keyword(query, IndexField.TEXT, words, pool);
    for (RankingStep step : steps) {
      list = step.keyword(this, words, pool, list);
    }
    return list;
  }

  /** True if a step finds that the search returns nothing ({@link RankingStep#empties}). */
  boolean empties(List<StoredMemory> first, double queryRelevance) {
    for (RankingStep step : steps) {
      if (step.empties(this, first, queryRelevance)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True if a step reads a memory's relevance from its context embedding too ({@link
   * RankingStep#byContext}).
   */
  boolean byContext() {
    for (RankingStep step : steps) {
      if (step.byContext(this)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True if a step keeps {@code item} only after the hits it does not defer ({@link
   * RankingStep#defers}).
   */
  boolean defers(MemoryItem item, Set<String> covered) {
    for (RankingStep step : steps) {
      if (step.defers(this, item, covered)) {
        explain(item.id(), step, "kept after the hits that bring a new source message");
        return true;
      }
    }
    return false;
  }

  /**
   * True if the request asks for {@code explain}: a step need not describe what it did otherwise.
   */
  boolean explains() {
    return explained != null;
  }

  /**
   * Records what {@code step} did to a memory, for its hit's {@code explain} (nothing without
   * explain).
   */
  void explain(String memoryId, RankingStep step, String text) {
    if (explained != null) {
      explained
          .computeIfAbsent(memoryId, id -> new LinkedHashMap<>())
          .merge(step.name(), text, (a, b) -> a + "; " + b);
    }
  }

  /**
   * What the steps said of a memory, by step name in the order they said it; empty without explain.
   */
  Map<String, String> explained(String memoryId) {
    return explained == null ? Map.of() : explained.getOrDefault(memoryId, Map.of());
  }

  /**
   * Notes, for each memory a step brought in, gave another fused score or moved up (not one only
   * pushed down by others), its ranks and fused scores before and after.
   */
  private void explainMoves(RankingStep step, List<Fused> before, List<Fused> after) {
    Map<String, Integer> rank = new HashMap<>();
    Map<String, Double> score = new HashMap<>();
    for (int i = 0; i < before.size(); i++) {
      rank.put(before.get(i).id, i + 1);
      score.put(before.get(i).id, before.get(i).score);
    }
    for (int i = 0; i < after.size(); i++) {
      Fused f = after.get(i);
      int was = rank.getOrDefault(f.id, 0);
      double had = score.getOrDefault(f.id, 0.0);
      if (was == 0 || had != f.score || i + 1 < was) { // not one only pushed down by others
        explain(f.id, step, step.explainMove(was, i + 1, had, f.score));
      }
    }
  }
}

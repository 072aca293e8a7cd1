package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.MemoryItem;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.analysis.QueryAnalyzer;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.RelevanceCalibration;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hybrid retrieval: dense KNN and BM25 inside the scope and filter (both applied in the index),
 * fused into one ranking ({@link RankFusion}), the request's ranking steps ({@link RankingStep})
 * acting on the lists before fusion, on the fused ranking and on the choice of hits ({@link
 * RankingPass}); each candidate in that order gets its {@link Relevance} (from its stored
 * embedding), is dropped below the threshold, and is kept until top-k is reached or, with a token
 * budget, while its text fits into what is left of the budget ({@link ContextBudget}); a further
 * passage of a long message a kept hit already brings, and a third memory of a message that two
 * kept hits already bring, wait behind the others ({@link #crowdsMessage}). The steps and the
 * choice of hits share one read of each record ({@link SearchRecords}). So the fusion chooses which
 * memories are returned; the kept hits are then sorted by relevance (their score). When the request
 * asks for reranking and a reranker is configured ({@link Reranking}), a larger pool is kept,
 * reranked, and only then cut to top-k and the budget. If the index fails a search, it is recreated
 * and rebuilt from the record and the search runs once more.
 */
final class HybridSearch {
  /**
   * How many kept hits a source message brings before its further memories wait behind those of
   * other messages ({@link #crowdsMessage}).
   */
  static final int HITS_PER_MESSAGE = 2;

  /** Candidates read from the record at a time while filling top-k or a budget. */
  private static final int READ_BATCH = 32;

  /** Estimated tokens per memory assumed when sizing the candidate pool for a budget. */
  private static final int POOL_TOKENS_PER_MEMORY = 8;

  /** Kept hits are shown by score, best first (ties: see {@link #byScore}; the sort is stable). */
  private static final Comparator<SearchHit> BY_SCORE =
      Comparator.comparingDouble((SearchHit h) -> -h.score());

  private final Engine engine;
  private final Reranking reranking;
  private final RankingSteps steps;
  private final QueryAnalyzer analyzer;

  /**
   * The search of {@code engine} with the ranking steps of {@code steps}, its queries read by
   * {@code analyzer}.
   */
  HybridSearch(Engine engine, RankingSteps steps, QueryAnalyzer analyzer) {
    this.engine = engine;
    this.reranking = new Reranking(engine.config.reranker());
    this.steps = steps;
    this.analyzer = analyzer;
  }

  SearchResult search(String tenant, SearchRequest r) {
    return searched(tenant, r).result();
  }

  /**
   * A search's memories; whether a ranking step found that the search returns nothing ({@link
   * RankingStep#empties}: the step names, for a query about what the store has never heard of),
   * relations included; and the search's run of its steps, through which the graph's relations are
   * read and whose query vector they share.
   */
  record Searched(SearchResult result, boolean emptied, RankingPass pass) {}

  /**
   * The query's embedding, L2-normalised: the one place a query is embedded, for memories and the
   * graph alike.
   */
  private float[] queryVector(String query) {
    return Vectors.normalized(
        engine.config.embedder().embedQuery(query),
        engine.config.embedder().dimension(),
        "the query");
  }

  /**
   * The search: its query embedded on this thread, its keyword lists read meanwhile on another when
   * the embedder's queries take long enough for that to pay ({@link QueryEmbeddings}), else after.
   */
  Searched searched(String tenant, SearchRequest r) {
    List<RankingStep> chosen = steps.of(r.ranking());
    engine.ensureSearchable();
    IndexQuery q =
        new IndexQuery(tenant, r.scope(), r.filter(), r.includeExpired(), engine.today());
    boolean reranks = reranking.runs(r);
    int wanted =
        r.maxTokens().isPresent()
            ? Math.min(r.topK(), Math.max(1, r.maxTokens().getAsInt() / POOL_TOKENS_PER_MEMORY))
            : r.topK();
    int rerankPool = reranks ? reranking.pool(wanted) : 0;
    int perSignal = Math.max(engine.config.candidatesPerSignal(), Math.max(wanted, rerankPool));
    long epoch = engine.indexEpoch();
    SearchRecords records = new SearchRecords(engine.store, tenant);
    QueryVector vector = QueryVector.pending();
    RankingPass pass = new RankingPass(engine, analyzer, chosen, r, q, vector, perSignal, records);
    ClaimedTask<List<Candidate>> keyword = new ClaimedTask<>(pass::keyword);
    vector.set(engine.queryEmbeddings.embed(() -> queryVector(r.query()), keyword));
    List<Fused> fused;
    try {
      fused = pass.candidates(keyword.get());
    } catch (RuntimeException e) {
      if (!engine.searchFailed(e, epoch)) {
        throw e;
      }
      engine.ensureSearchable(); // recreates the index and rebuilds it from the record
      pass = new RankingPass(engine, analyzer, chosen, r, q, vector, perSignal, records);
      fused = pass.candidates(pass.keyword());
    }
    Map<String, Double> own =
        new HashMap<>(); // the own relevance of each memory scored, by id: computed once
    RelevanceCalibration calibration = engine.config.embedder().relevanceCalibration();
    List<StoredMemory> first =
        records.get(
            fused.subList(0, Math.min(READ_BATCH, fused.size())).stream().map(f -> f.id).toList());
    double queryRelevance =
        queryRelevance(pass.vector(), first, pass.byContext(), pass.contentWords, calibration, own);
    if (pass.empties(first, queryRelevance)) {
      return new Searched(new SearchResult(List.of()), true, pass);
    }
    Map<String, Double> standing = new HashMap<>(); // the kept hits' tie-breaks, by id
    if (!reranks) {
      return new Searched(
          new SearchResult(
              byScore(
                  select(pass, fused, r.topK(), budget(r), own, queryRelevance, standing),
                  standing)),
          false,
          pass);
    }
    // The reranker sees a larger pool; the budget applies to its order. If it fails, the search
    // answers as without it.
    List<SearchHit> pool =
        select(pass, fused, rerankPool, ContextBudget.unlimited(), own, queryRelevance, standing);
    Optional<List<SearchHit>> reranked = reranking.rerank(r, byScore(pool, standing));
    return new Searched(
        new SearchResult(
            reranked.isPresent()
                ? budget(r).fit(reranked.get(), r.topK())
                : byScore(budget(r).fit(pool, r.topK()), standing)),
        false,
        pass);
  }

  /** The request's context budget, counted by the engine's token counter. */
  private ContextBudget budget(SearchRequest r) {
    return ContextBudget.of(engine.config.tokenCounter(), r.maxTokens());
  }

  /**
   * The hits sorted by score, best first; equal scores go to the higher {@code standing} ({@link
   * #standing}), then keep the fusion's order. Scores meet where the fusion's support lifts its
   * first hit to the query's relevance, the best own relevance among the first candidates.
   */
  private static List<SearchHit> byScore(List<SearchHit> hits, Map<String, Double> standing) {
    List<SearchHit> sorted = new ArrayList<>(hits);
    sorted.sort(BY_SCORE.thenComparingDouble(h -> -standing.get(h.memory().id())));
    return sorted;
  }

  /**
   * What decides between hits of equal score: the hit's own relevance, times its share of the best
   * fused score where the fusion fuses scores ({@link Fusion#COSINE} and {@link Fusion#WEIGHTED}:
   * the fused score is the cosine with the keyword score and the ranking steps' changes), alone
   * under {@link Fusion#RRF} (a share of a sum of reciprocal ranks says how the lists ranked a
   * memory, not how near it is). Measured on both samples, as the share of questions whose first
   * hit holds evidence (docs/benchmarks/log.md, "Equal scores: the fusion's share decides with the
   * own relevance"): under the cosine fusion the own relevance alone put the evidence first less
   * often (BEAM's extracted facts 0.456 against 0.511, LoCoMo's 0.429 against 0.476, BEAM's turns
   * 0.400 against 0.511, LoCoMo's 0.320 against 0.355), and under RRF the share put it first less
   * often on BEAM (0.256 against 0.422, LoCoMo 0.489 against 0.433).
   */
  private double standing(double own, double fusedShare) {
    return engine.config.fusion() == Fusion.RRF ? own : own * fusedShare;
  }

  /**
   * Walks the fused ranking, reading the candidates' records in batches (a record the ranking steps
   * read already is not read again): each gets its score, those under the threshold are dropped,
   * and the rest are kept up to {@code limit} and within {@code budget}, those a ranking step
   * defers ({@link RankingStep#defers}) after the others. The candidates' own relevances go into
   * {@code own}, and each hit's {@link #standing} into {@code standing}, by id.
   */
  private List<SearchHit> select(
      RankingPass pass,
      List<Fused> fused,
      int limit,
      ContextBudget budget,
      Map<String, Double> own,
      double queryRelevance,
      Map<String, Double> standing) {
    SearchRequest r = pass.request;
    float[] vector = pass.vector();
    SearchRecords records = pass.records;
    RelevanceCalibration calibration = engine.config.embedder().relevanceCalibration();
    boolean byContext = pass.byContext();
    double topFused = fused.stream().mapToDouble(f -> f.score).max().orElse(0);
    List<SearchHit> hits = new ArrayList<>();
    Map<String, Integer> keptBySource = new HashMap<>(); // kept hits per source message
    Set<String> covered = keptBySource.keySet();
    List<SearchHit> deferred = new ArrayList<>();
    for (int from = 0;
        from < fused.size() && hits.size() < limit && !budget.spent();
        from += READ_BATCH) {
      List<Fused> batch = fused.subList(from, Math.min(fused.size(), from + READ_BATCH));
      Map<String, StoredMemory> stored = new HashMap<>();
      for (StoredMemory m : records.get(batch.stream().map(f -> f.id).toList())) {
        stored.put(m.id(), m);
      }
      for (Fused f : batch) {
        StoredMemory m = stored.get(f.id);
        if (m == null) {
          continue; // deleted between the index read and the record read
        }
        double ownRelevance =
            own.computeIfAbsent(
                m.id(), id -> relevance(vector, m, byContext, pass.contentWords, calibration));
        double fusedShare = topFused > 0 ? f.score / topFused : 0;
        double score = Relevance.supported(ownRelevance, queryRelevance, fusedShare);
        if (score < r.threshold()) {
          continue;
        }
        MemoryItem item = m.item();
        boolean defer = crowdsMessage(item, keptBySource) || pass.defers(item, covered);
        ScoreDetails details =
            r.explain()
                ? new ScoreDetails(
                    f.firstRank > 0
                        ? f.first
                        : Math.max(0, Relevance.cosine(vector, m.embeddingView())),
                    f.firstRank,
                    f.second,
                    f.secondRank,
                    f.score,
                    Double.NaN,
                    engine.config.fusion().name(),
                    pass.explained(m.id()))
                : null;
        SearchHit hit = new SearchHit(item, score, details);
        standing.put(m.id(), standing(ownRelevance, fusedShare));
        if (defer) {
          deferred.add(hit); // kept after the memories with a new source
          continue;
        }
        if (!budget.take(item.text())) {
          continue; // a shorter memory further down may still fit
        }
        item.sourceIds().forEach(source -> keptBySource.merge(source, 1, Integer::sum));
        hits.add(hit);
        if (hits.size() == limit || budget.spent()) {
          break;
        }
      }
    }
    for (SearchHit h : deferred) {
      if (hits.size() == limit || budget.spent()) {
        break;
      }
      if (budget.take(h.memory().text())) {
        hits.add(h);
      }
    }
    return hits;
  }

  /**
   * True if {@code item} would crowd the hits with one message: a passage of a long message ({@link
   * MemoryItem#PASSAGE_START}) whose source messages a better kept hit already brings, or any
   * memory whose source messages each already bring {@value #HITS_PER_MESSAGE} kept hits. Such a
   * memory is kept only after the hits that bring another message (as the step diversity does for a
   * message's second memory already). A message split into passages for its embeddings is still one
   * message, so its best passage stands for it; without this, the passages of one long answer each
   * rank on their own and take several of top-k's places from the short messages that hold a fact.
   * And the facts the extractor draws from one message lie close together under the cosine fusion:
   * a message's third fact waits (on BEAM's extracted facts evidence recall at 1,500 tokens 0.683 →
   * 0.727, LoCoMo's 0.926 → 0.929 with its answers' words -0.011; from the second, as diversity
   * does, LoCoMo lost 0.063 of the answers' words: docs/benchmarks/log.md, "The ranking steps under
   * the cosine fusion"). A memory without source messages is never deferred here.
   */
  private static boolean crowdsMessage(MemoryItem item, Map<String, Integer> keptBySource) {
    if (item.sourceIds().isEmpty()) {
      return false;
    }
    int enough = item.metadata().containsKey(MemoryItem.PASSAGE_START) ? 1 : HITS_PER_MESSAGE;
    return item.sourceIds().stream().allMatch(s -> keptBySource.getOrDefault(s, 0) >= enough);
  }

  /**
   * The query's relevance to the scope: the best {@link Relevance} among the fusion's first {@link
   * #READ_BATCH} candidates (one read of their records, which the choice of hits then reads no
   * more; their relevances go into {@code own}, which the choice of hits reuses), 0 if there are
   * none.
   */
  private static double queryRelevance(
      float[] vector,
      List<StoredMemory> first,
      boolean byContext,
      List<String> contentWords,
      RelevanceCalibration calibration,
      Map<String, Double> own) {
    double best = 0;
    for (StoredMemory m : first) {
      double relevance = relevance(vector, m, byContext, contentWords, calibration);
      own.put(m.id(), relevance);
      best = Math.max(best, relevance);
    }
    return best;
  }

  /**
   * A memory's own relevance: by its embedding's cosine, or with {@code byContext} the larger of it
   * and its context's, and the share of the query's content words its text holds.
   */
  private static double relevance(
      float[] vector,
      StoredMemory m,
      boolean byContext,
      List<String> contentWords,
      RelevanceCalibration calibration) {
    double cosine = Relevance.cosine(vector, m.embeddingView());
    return Relevance.of(
        byContext && m.contextEmbeddingView().length > 0
            ? Math.max(cosine, Relevance.cosine(vector, m.contextEmbeddingView()))
            : cosine,
        calibration.keywordSlope() > 0 ? QueryAnalyzer.share(contentWords, m.item().text()) : 0.0,
        calibration);
  }
}

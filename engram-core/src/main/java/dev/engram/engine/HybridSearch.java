package dev.engram.engine;

import dev.engram.MemoryItem;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TokenEstimator;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hybrid retrieval: dense KNN and BM25 inside the scope and filter (both applied in the index), fused into one
 * ranking ({@link RankFusion}); each candidate in that order gets its {@link Relevance} (from its stored embedding),
 * is dropped below the threshold, and is kept until top-k is reached or, with a token budget, while its text fits
 * into what is left of the budget. So the fusion chooses which memories are returned; the kept hits are then sorted
 * by relevance (their score) and reranked. If the index fails a search, it is recreated and
 * rebuilt from the record and the search runs once more.
 */
final class HybridSearch {
  /** Candidates read from the record at a time while filling top-k or a budget. */
  private static final int READ_BATCH = 32;
  /** Estimated tokens per memory assumed when sizing the candidate pool for a budget. */
  private static final int POOL_TOKENS_PER_MEMORY = 8;

  /** Kept hits are shown by relevance, best first; ties keep the fusion's order (the sort is stable). */
  private static final java.util.Comparator<SearchHit> BY_SCORE =
      java.util.Comparator.comparingDouble((SearchHit h) -> -h.score());

  private final Engine engine;

  HybridSearch(Engine engine) {
    this.engine = engine;
  }

  SearchResult search(String tenant, SearchRequest r) {
    return search(tenant, r, queryVector(r.query()));
  }

  /** The query's embedding, L2-normalised: the one place a query is embedded, for memories and the graph alike. */
  float[] queryVector(String query) {
    return Vectors.normalized(engine.config.embedder().embedQuery(query), engine.config.embedder().dimension(),
        "the query");
  }

  /** The search with the query already embedded ({@link #queryVector}), so the graph half can share it. */
  SearchResult search(String tenant, SearchRequest r, float[] vector) {
    engine.ensureSearchable();
    IndexQuery q = new IndexQuery(tenant, r.scope(), r.filter(), r.includeExpired(), engine.today());
    int wanted = r.maxTokens().isPresent()
        ? Math.min(r.topK(), Math.max(1, r.maxTokens().getAsInt() / POOL_TOKENS_PER_MEMORY))
        : r.topK();
    int pool = Math.max(engine.config.candidatesPerSignal(), wanted);
    long epoch = engine.indexEpoch();
    List<Fused> fused;
    try {
      fused = candidates(q, r.query(), vector, pool);
    } catch (RuntimeException e) {
      if (!engine.searchFailed(e, epoch)) {
        throw e;
      }
      engine.ensureSearchable(); // recreates the index and rebuilds it from the record
      fused = candidates(q, r.query(), vector, pool);
    }
    List<SearchHit> hits = select(tenant, r, vector, fused);
    hits.sort(BY_SCORE);
    return new SearchResult(engine.config.reranker().rerank(r.query(), hits));
  }

  /**
   * Walks the fused ranking, reading the candidates' records in batches: each gets its relevance, those under the
   * threshold are dropped, and the rest are kept up to top-k and within the token budget.
   */
  private List<SearchHit> select(String tenant, SearchRequest r, float[] vector, List<Fused> fused) {
    double floor = engine.config.embedder().relevanceFloor();
    int budget = r.maxTokens().orElse(Integer.MAX_VALUE);
    int used = 0;
    List<SearchHit> hits = new ArrayList<>();
    for (int from = 0; from < fused.size() && hits.size() < r.topK() && used < budget; from += READ_BATCH) {
      List<Fused> batch = fused.subList(from, Math.min(fused.size(), from + READ_BATCH));
      Map<String, StoredMemory> stored = new HashMap<>();
      for (StoredMemory m : engine.store.getAll(tenant, batch.stream().map(f -> f.id).toList())) {
        stored.put(m.id(), m);
      }
      for (Fused f : batch) {
        StoredMemory m = stored.get(f.id);
        if (m == null) {
          continue; // deleted between the index read and the record read
        }
        double cosine = Relevance.cosine(vector, m.embeddingView());
        double score = Relevance.of(cosine, floor);
        if (score < r.threshold()) {
          continue;
        }
        MemoryItem item = m.item();
        int cost = TokenEstimator.estimate(item.text());
        if (used + cost > budget) {
          continue; // a shorter memory further down may still fit
        }
        used += cost;
        ScoreDetails details = r.explain()
            ? new ScoreDetails(f.firstRank > 0 ? f.first : Math.max(0, cosine), f.firstRank, f.second,
                f.secondRank, f.score, Double.NaN, engine.config.fusion().name())
            : null;
        hits.add(new SearchHit(item, score, details));
        if (hits.size() == r.topK() || used >= budget) {
          break;
        }
      }
    }
    return hits;
  }

  /** Both signals' candidates from the index, fused. */
  private List<Fused> candidates(IndexQuery q, String query, float[] vector, int pool) {
    return RankFusion.fuse(engine.config.fusion(), engine.index.dense(q, vector, pool),
        engine.index.keyword(q, query, pool));
  }
}

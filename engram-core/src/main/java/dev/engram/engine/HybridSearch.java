package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.MemoryItem;
import dev.engram.ScoreDetails;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex.Candidate;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hybrid retrieval: dense KNN and BM25 inside the scope and filter (both applied in the index), fused into one
 * ranking, thresholded, then reranked when asked ({@link Reranking}) and cut to top-k. If the index fails a search,
 * it is recreated and rebuilt from the record and the search runs once more.
 */
final class HybridSearch {
  /** The RRF constant of Cormack et al. */
  static final int RRF_K = 60;
  static final double SEMANTIC_WEIGHT = 0.7;

  private final Engine engine;
  private final Reranking reranking;

  HybridSearch(Engine engine) {
    this.engine = engine;
    this.reranking = new Reranking(engine.config.reranker());
  }

  SearchResult search(String tenant, SearchRequest r) {
    return search(tenant, r, queryVector(r.query()));
  }

  /** The query's embedding, L2-normalised. */
  float[] queryVector(String query) {
    return Vectors.normalized(engine.config.embedder().embedQuery(query), engine.config.embedder().dimension(),
        "the query");
  }

  /** The search with the query already embedded ({@link #queryVector}), so the graph half can share it. */
  SearchResult search(String tenant, SearchRequest r, float[] vector) {
    engine.ensureSearchable();
    IndexQuery q = new IndexQuery(tenant, r.scope(), r.filter(), r.includeExpired(), engine.today());
    int wanted = reranking.pool(r); // top-k, or more for the reranker
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
    List<Fused> kept = new ArrayList<>(wanted);
    for (Fused f : fused) {
      if (kept.size() == wanted) {
        break;
      }
      if (f.score >= r.threshold()) {
        kept.add(f);
      }
    }
    Map<String, MemoryItem> items = new HashMap<>();
    for (StoredMemory m : engine.store.getAll(tenant, kept.stream().map(f -> f.id).toList())) {
      items.put(m.id(), m.item());
    }
    List<SearchHit> hits = new ArrayList<>(kept.size());
    for (Fused f : kept) {
      MemoryItem item = items.get(f.id);
      if (item == null) {
        continue; // deleted between the index read and the record read
      }
      ScoreDetails details = r.explain()
          ? new ScoreDetails(f.semantic, f.semanticRank, f.keyword, f.keywordRank, f.score, Double.NaN,
              engine.config.fusion().name())
          : null;
      hits.add(new SearchHit(item, f.score, details));
    }
    return new SearchResult(reranking.apply(r, hits));
  }

  /** Both signals' candidates from the index, fused. */
  private List<Fused> candidates(IndexQuery q, String query, float[] vector, int pool) {
    List<Candidate> dense = engine.index.dense(q, vector, pool);
    List<Candidate> keyword = engine.index.keyword(q, query, pool);
    return fuse(engine.config.fusion(), dense, keyword);
  }

  /** One candidate's scores across the signals. */
  static final class Fused {
    final String id;
    double semantic;
    int semanticRank;
    double keyword;
    int keywordRank;
    double score;

    Fused(String id) {
      this.id = id;
    }
  }

  /** Fuses the two ranked lists; the result is sorted by score, best first, ties by id. */
  static List<Fused> fuse(Fusion fusion, List<Candidate> dense, List<Candidate> keyword) {
    Map<String, Fused> all = new LinkedHashMap<>();
    for (int i = 0; i < dense.size(); i++) {
      Fused f = all.computeIfAbsent(dense.get(i).id(), Fused::new);
      f.semantic = Math.max(0, dense.get(i).score());
      f.semanticRank = i + 1;
    }
    double maxKeyword = 0;
    for (int i = 0; i < keyword.size(); i++) {
      Fused f = all.computeIfAbsent(keyword.get(i).id(), Fused::new);
      f.keyword = keyword.get(i).score();
      f.keywordRank = i + 1;
      maxKeyword = Math.max(maxKeyword, f.keyword);
    }
    double rrfMax = 2.0 / (RRF_K + 1);
    for (Fused f : all.values()) {
      if (fusion == Fusion.RRF) {
        double s = (f.semanticRank > 0 ? 1.0 / (RRF_K + f.semanticRank) : 0)
            + (f.keywordRank > 0 ? 1.0 / (RRF_K + f.keywordRank) : 0);
        f.score = s / rrfMax;
      } else {
        double kw = maxKeyword > 0 ? f.keyword / maxKeyword : 0;
        f.score = SEMANTIC_WEIGHT * f.semantic + (1 - SEMANTIC_WEIGHT) * kw;
      }
    }
    List<Fused> out = new ArrayList<>(all.values());
    out.sort(Comparator.comparingDouble((Fused f) -> -f.score).thenComparing(f -> f.id));
    return out;
  }
}

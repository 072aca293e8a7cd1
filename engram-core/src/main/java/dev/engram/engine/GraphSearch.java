package dev.engram.engine;

import dev.engram.Fusion;
import dev.engram.GraphRelation;
import dev.engram.Scope;
import dev.engram.analysis.QueryAnalyzer;
import dev.engram.graph.Entity;
import dev.engram.graph.Names;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.ScoredRelation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphStore;
import dev.engram.spi.RelevanceCalibration;
import dev.engram.spi.SearchIndex.Candidate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Graph retrieval without any LLM, both halves of the Mem0g paper: (a) entity-centred: entities
 * named in the query (word n-grams matched on normalised names, and the query embedding against
 * name embeddings above the entity threshold) and their neighbourhood up to two hops, ranked by hop
 * then by fact similarity; (b) semantic triples: the query embedding against fact embeddings. The
 * two lists are fused by {@link RankFusion} (the memories' fusion setting); each relation's score
 * is its fact's {@link Relevance} to the query, as for memories. The semantic list is read through
 * the search's ranking steps ({@link RankingPass#relations}): with the step hubs, it is ordered as
 * the memories' dense lists are ({@link HubsStep}).
 */
final class GraphSearch {
  private static final int MAX_NGRAM = 4;
  private static final int MAX_PER_HOP = 200;

  private final Engine engine;
  private final GraphStore graph;

  GraphSearch(Engine engine) {
    this.engine = engine;
    this.graph = engine.graph;
  }

  /**
   * The top {@code k} relations for the query under a resolved view whose relevance reaches {@code
   * threshold}; the fact-similarity list is read through the ranking steps of the memories' search,
   * {@code pass}.
   */
  List<GraphRelation> search(
      String tenant,
      Scope scope,
      String query,
      float[] vector,
      int k,
      double threshold,
      TimeView view,
      RankingPass pass) {
    Set<String> anchors = new LinkedHashSet<>();
    for (Entity e : graph.entitiesByName(tenant, scope, ngrams(query))) {
      anchors.add(e.id());
    }
    for (ScoredEntity se : graph.similarEntities(tenant, scope, vector, 3)) {
      if (se.score() >= engine.config.graphEntityThreshold()) {
        anchors.add(se.entity().id());
      }
    }
    List<Relation> centred = new ArrayList<>();
    if (!anchors.isEmpty()) {
      List<Relation> hop1 =
          graph.nearestRelationsOf(tenant, scope, anchors, view, vector, MAX_PER_HOP);
      Set<String> next = new LinkedHashSet<>();
      for (Relation r : hop1) {
        centred.add(r);
        for (String id : List.of(r.sourceId(), r.targetId())) {
          if (!anchors.contains(id)) {
            next.add(id);
          }
        }
      }
      if (!next.isEmpty()) {
        Set<String> seen = new LinkedHashSet<>();
        centred.forEach(r -> seen.add(r.id()));
        // the first MAX_PER_HOP not seen are among the first MAX_PER_HOP + seen
        List<Relation> hop2 =
            graph
                .nearestRelationsOf(tenant, scope, next, view, vector, MAX_PER_HOP + seen.size())
                .stream()
                .filter(r -> !seen.contains(r.id()))
                .limit(MAX_PER_HOP)
                .toList();
        centred.addAll(hop2);
      }
    }
    List<ScoredRelation> semantic = pass.relations(graph, view, Math.max(k * 2, 10));
    Map<String, Relation> byId = new LinkedHashMap<>();
    List<Candidate> centredRanking = new ArrayList<>(centred.size());
    for (Relation r : centred) {
      byId.putIfAbsent(r.id(), r);
      centredRanking.add(new Candidate(r.id(), Relevance.cosine(r.factEmbeddingView(), vector)));
    }
    List<Candidate> semanticRanking = new ArrayList<>(semantic.size());
    for (ScoredRelation sr : semantic) {
      byId.putIfAbsent(sr.relation().id(), sr.relation());
      semanticRanking.add(new Candidate(sr.relation().id(), sr.score()));
    }
    RelevanceCalibration calibration = engine.config.embedder().relevanceCalibration();
    Map<String, Double> relevance = new HashMap<>();
    List<Relation> ranked = new ArrayList<>();
    for (RankFusion.Fused f :
        RankFusion.fuse(
            engine.config.fusion() == Fusion.COSINE ? Fusion.RRF : engine.config.fusion(),
            semanticRanking,
            centredRanking)) {
      if (ranked.size() == k) {
        break;
      }
      Relation r = byId.get(f.id);
      double score =
          Relevance.of(
              Relevance.cosine(r.factEmbeddingView(), vector),
              calibration.keywordSlope() > 0
                  ? QueryAnalyzer.share(pass.contentWords, r.fact())
                  : 0.0,
              calibration);
      if (score >= threshold) {
        relevance.put(r.id(), score);
        ranked.add(r);
      }
    }
    return render(tenant, ranked, r -> relevance.get(r.id()));
  }

  /**
   * The relations as API records, endpoint names resolved, with their provenance (source message
   * ids, memory ids); {@code scorer} gives each one's score.
   */
  List<GraphRelation> render(
      String tenant,
      List<Relation> relations,
      java.util.function.ToDoubleFunction<Relation> scorer) {
    return render(relations, entityNames(graph, tenant, relations, List.of()), scorer);
  }

  /**
   * The names of the relations' endpoints by entity id: those of {@code known} (for example
   * entities an add is about to write), the others read from the store.
   */
  static Map<String, String> entityNames(
      GraphStore graph, String tenant, Collection<Relation> relations, Collection<Entity> known) {
    Map<String, String> names = new HashMap<>();
    known.forEach(e -> names.put(e.id(), e.name()));
    Set<String> missing = new LinkedHashSet<>();
    for (Relation r : relations) {
      for (String id : List.of(r.sourceId(), r.targetId())) {
        if (!names.containsKey(id)) {
          missing.add(id);
        }
      }
    }
    if (!missing.isEmpty()) {
      graph.entities(tenant, missing).forEach(e -> names.put(e.id(), e.name()));
    }
    return names;
  }

  /**
   * The relations as API records with their endpoint names; a relation whose endpoint has no name
   * is left out.
   */
  static List<GraphRelation> render(
      List<Relation> relations,
      Map<String, String> names,
      java.util.function.ToDoubleFunction<Relation> scorer) {
    List<GraphRelation> out = new ArrayList<>(relations.size());
    for (Relation r : relations) {
      String s = names.get(r.sourceId());
      String t = names.get(r.targetId());
      if (s != null && t != null) {
        out.add(
            new GraphRelation(
                r.id(),
                s,
                r.name(),
                t,
                r.fact(),
                r.validAt(),
                r.invalidAt(),
                r.createdAt(),
                r.expiredAt(),
                scorer.applyAsDouble(r),
                r.sourceMessageIds(),
                r.memoryIds()));
      }
    }
    return out;
  }

  /** The entities of the scope with this name (normalised). */
  List<Entity> named(String tenant, Scope scope, String name) {
    String key = Names.normalize(name);
    return key.isEmpty() ? List.of() : graph.entitiesByName(tenant, scope, List.of(key));
  }

  /** Relations within {@code hops} of the entities, nearest first, then by id. */
  List<Relation> around(
      String tenant, Scope scope, Collection<String> start, int hops, TimeView view) {
    Set<String> visited = new LinkedHashSet<>(start);
    Set<String> frontier = new LinkedHashSet<>(start);
    Map<String, Relation> out = new LinkedHashMap<>();
    for (int hop = 0; hop < hops && !frontier.isEmpty(); hop++) {
      Set<String> next = new LinkedHashSet<>();
      for (Relation r : graph.relationsOf(tenant, scope, frontier, view)) {
        if (out.putIfAbsent(r.id(), r) == null) {
          for (String id : List.of(r.sourceId(), r.targetId())) {
            if (visited.add(id)) {
              next.add(id);
            }
          }
        }
      }
      frontier = next;
    }
    return new ArrayList<>(out.values());
  }

  /** Normalised word n-grams (1 to {@value #MAX_NGRAM} words) of the query. */
  static Set<String> ngrams(String query) {
    String[] words = Names.normalize(query).split(" ", -1);
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < words.length; i++) {
      StringBuilder b = new StringBuilder();
      for (int n = 0; n < MAX_NGRAM && i + n < words.length; n++) {
        if (n > 0) {
          b.append(' ');
        }
        b.append(words[i + n]);
        if (!b.isEmpty()) {
          out.add(b.toString());
        }
      }
    }
    out.remove("");
    return out;
  }
}

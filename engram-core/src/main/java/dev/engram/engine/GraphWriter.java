package dev.engram.engine;

import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Names;
import dev.engram.graph.Relation;
import dev.engram.graph.ScoredEntity;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.GraphExtractor.ExtractedEntity;
import dev.engram.spi.GraphExtractor.ExtractedRelation;
import dev.engram.spi.GraphStore;
import dev.engram.spi.UsageMeter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one add into {@link GraphChanges}: extraction (the configured {@link GraphExtractor}),
 * entity resolution (exact normalised name or {@linkplain Entity#aliases() alias} in the add's
 * scope, then the most similar name embedding of the scope above the merge threshold, both without
 * any LLM; then one {@link GraphExtractor#matchEntities} call for the names whose closest entities
 * fall in the ambiguous band between the floor and the threshold, a matched name becoming an alias
 * of the entity), exact-duplicate detection, then one judge call for the new relations that have
 * candidates (still-valid relations sharing an endpoint). Contradicted relations get {@code
 * invalidAt} (the new relation's {@code validAt}, else the message time) and {@code expiredAt}
 * (now); duplicates add provenance. Nothing is deleted. Reads the graph store, never writes it.
 * Entities created earlier in the same batch are found through {@code pending}.
 */
final class GraphWriter {
  private static final int MAX_CANDIDATES = 20;
  private static final int MAX_ENTITY_CANDIDATES = 5;

  private final Engine engine;
  private final GraphStore graph;

  GraphWriter(Engine engine, GraphStore graph) {
    this.engine = engine;
    this.graph = graph;
  }

  /** Entities written earlier in one batch, by scope and normalised name. */
  static final class Pending {
    final Map<String, Entity> entities = new HashMap<>();
    final Map<String, Relation> relations = new LinkedHashMap<>();
    final Map<String, Entity> upserts = new LinkedHashMap<>();

    GraphChanges changes() {
      return GraphChanges.upserts(List.copyOf(upserts.values()), List.copyOf(relations.values()));
    }
  }

  /**
   * What one write did: the ids of the relations it added and of those it invalidated (their
   * versions are in {@link Pending#relations}).
   */
  record Written(List<String> added, List<String> invalidated) {
    static final Written NOTHING = new Written(List.of(), List.of());
  }

  Written write(String tenant, GraphExtractor.Input input, Pending pending) {
    return write(tenant, input, pending, Map.of());
  }

  /**
   * Writes one add's graph changes into {@code pending}; a fact that is a text the add has just
   * embedded (the offline extractor's facts are memory texts) takes that text's vector from {@code
   * embedded} instead of being embedded again.
   */
  Written write(
      String tenant, GraphExtractor.Input input, Pending pending, Map<String, float[]> embedded) {
    GraphExtractor extractor = engine.config.graphExtractor().orElseThrow();
    GraphExtractor.Extraction ex = extractor.extract(input);
    if (ex.relations().isEmpty() && ex.entities().isEmpty()) {
      return Written.NOTHING;
    }
    Scope scope = input.scope();
    Instant now = engine.config.clock().instant();
    Instant messageTime = input.timestamp() != null ? input.timestamp() : now;
    Map<String, String> types = new LinkedHashMap<>();
    Map<String, String> displayNames = new LinkedHashMap<>();
    for (ExtractedEntity e : ex.entities()) {
      note(types, displayNames, e.name(), e.type());
    }
    for (ExtractedRelation r : ex.relations()) {
      note(types, displayNames, r.source(), null);
      note(types, displayNames, r.target(), null);
    }
    types.remove("");
    Map<String, Entity> resolved =
        resolve(tenant, scope, types, displayNames, now, pending, input.messages(), input.usage());

    List<ExtractedRelation> wanted =
        ex.relations().stream()
            .filter(
                r ->
                    resolved.containsKey(Names.normalize(r.source()))
                        && resolved.containsKey(Names.normalize(r.target()))
                        && !r.fact().isBlank())
            .toList();
    List<float[]> factVectors =
        Vectors.embedDocuments(
            engine.config.embedder(),
            wanted.stream().map(ExtractedRelation::fact).toList(),
            "fact",
            embedded);
    List<Relation> fresh = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      ExtractedRelation r = wanted.get(i);
      Entity s = resolved.get(Names.normalize(r.source()));
      Entity t = resolved.get(Names.normalize(r.target()));
      RelationProvenance.Sources from = RelationProvenance.of(r, input);
      fresh.add(
          new Relation(
              engine.config.ids().get(),
              s.id(),
              Names.relation(r.relation()),
              t.id(),
              r.fact().trim(),
              factVectors.get(i),
              r.validAt() != null ? r.validAt() : messageTime,
              r.invalidAt(),
              now,
              r.invalidAt() != null ? now : null,
              from.messageIds(),
              from.memoryIds(),
              scope));
    }
    return resolveConflicts(tenant, scope, fresh, messageTime, now, input.usage(), pending);
  }

  private static void note(
      Map<String, String> types, Map<String, String> names, String name, String type) {
    String key = Names.normalize(name);
    if (key.isEmpty()) {
      return;
    }
    names.putIfAbsent(key, name.trim());
    if (type != null || !types.containsKey(key)) {
      types.merge(
          key, type == null ? "entity" : type, (old, neu) -> "entity".equals(old) ? neu : old);
    }
  }

  private Map<String, Entity> resolve(
      String tenant,
      Scope scope,
      Map<String, String> types,
      Map<String, String> names,
      Instant now,
      Pending pending,
      List<Message> messages,
      UsageMeter usage) {
    Map<String, Entity> out = new LinkedHashMap<>();
    List<Entity> known =
        graph.entitiesByName(tenant, scope, types.keySet()).stream()
            .filter(e -> e.scope().equals(scope))
            .toList();
    for (Entity e : known) {
      if (types.containsKey(e.normalizedName())) {
        out.merge(e.normalizedName(), e, (a, b) -> a.createdAt().isBefore(b.createdAt()) ? a : b);
      }
    }
    // A name the model once matched to an entity is one of its aliases: resolved here, without
    // embedding or call.
    // An entity's own name wins over another entity's alias.
    Map<String, Entity> byAlias = new LinkedHashMap<>();
    for (Entity e : known) {
      for (String alias : e.aliases()) {
        if (types.containsKey(alias) && !out.containsKey(alias)) {
          byAlias.merge(alias, e, (a, b) -> a.createdAt().isBefore(b.createdAt()) ? a : b);
        }
      }
    }
    out.putAll(byAlias);
    for (String key : types.keySet()) {
      Entity p = pending.entities.get(scope.key() + "\u0000" + key);
      if (p != null) {
        out.put(key, p);
      }
    }
    List<String> unresolved = types.keySet().stream().filter(k -> !out.containsKey(k)).toList();
    Set<String> matchedByModel = new java.util.HashSet<>();
    if (!unresolved.isEmpty()) {
      List<float[]> vectors =
          Vectors.embedDocuments(
              engine.config.embedder(),
              unresolved.stream().map(names::get).toList(),
              "entity name");
      List<GraphExtractor.EntityQuestion> questions = new ArrayList<>();
      Map<Integer, float[]> questioned = new HashMap<>();
      for (int i = 0; i < unresolved.size(); i++) {
        String key = unresolved.get(i);
        float[] v = vectors.get(i);
        List<GraphExtractor.EntityCandidate> ambiguous = new ArrayList<>();
        Entity match = null;
        for (ScoredEntity se : graph.similarEntities(tenant, scope, v, MAX_ENTITY_CANDIDATES)) {
          if (!se.entity().scope().equals(scope)) {
            continue;
          }
          if (se.score() >= engine.config.graphEntityThreshold()) {
            match = se.entity();
            break;
          }
          if (se.score() >= engine.config.graphAmbiguityFloor()) {
            ambiguous.add(
                new GraphExtractor.EntityCandidate(
                    se.entity().id(), se.entity().name(), se.entity().type(), se.score()));
          }
        }
        if (match != null) {
          out.put(key, pending.upserts.getOrDefault(match.id(), match));
        } else if (!ambiguous.isEmpty()) {
          questions.add(
              new GraphExtractor.EntityQuestion(i, names.get(key), types.get(key), ambiguous));
          questioned.put(i, v);
        } else {
          out.put(key, create(scope, key, names, types, v, now, pending));
        }
      }
      if (!questions.isEmpty()) {
        Map<Integer, Entity> matched = askForMatches(tenant, messages, questions, usage);
        for (GraphExtractor.EntityQuestion q : questions) {
          String key = unresolved.get(q.index());
          Entity m = matched.get(q.index());
          if (m != null) {
            matchedByModel.add(key);
          }
          out.put(
              key,
              m != null
                  ? pending.upserts.getOrDefault(m.id(), m)
                  : create(scope, key, names, types, questioned.get(q.index()), now, pending));
        }
      }
    }
    for (Map.Entry<String, Entity> e : out.entrySet()) {
      Entity existing = e.getValue();
      if (!pending.upserts.containsKey(existing.id())) {
        Entity touched = existing.mentioned(now);
        pending.upserts.put(touched.id(), touched);
        pending.entities.put(scope.key() + "\u0000" + existing.normalizedName(), touched);
        e.setValue(touched);
      }
      if (matchedByModel.contains(e.getKey())) {
        // The matched name becomes an alias (the display name stays), so the next add resolves it
        // by name.
        Entity aliased = pending.upserts.get(existing.id()).withAlias(e.getKey(), now);
        pending.upserts.put(aliased.id(), aliased);
        pending.entities.put(scope.key() + "\u0000" + aliased.normalizedName(), aliased);
        pending.entities.put(scope.key() + "\u0000" + e.getKey(), aliased);
        e.setValue(aliased);
      }
    }
    return out;
  }

  /**
   * One call for every ambiguous name of the add; answers naming ids outside a question's
   * candidates are ignored.
   */
  private Map<Integer, Entity> askForMatches(
      String tenant,
      List<Message> messages,
      List<GraphExtractor.EntityQuestion> questions,
      UsageMeter usage) {
    Map<Integer, GraphExtractor.EntityQuestion> byIndex = new HashMap<>();
    questions.forEach(q -> byIndex.put(q.index(), q));
    Map<Integer, String> chosen = new HashMap<>();
    for (GraphExtractor.EntityMatch m :
        engine.config.graphExtractor().orElseThrow().matchEntities(messages, questions, usage)) {
      GraphExtractor.EntityQuestion q = byIndex.get(m.index());
      if (q != null && q.candidates().stream().anyMatch(c -> c.id().equals(m.entityId()))) {
        chosen.putIfAbsent(m.index(), m.entityId());
      }
    }
    Map<String, Entity> entities = new HashMap<>();
    for (Entity e : graph.entities(tenant, chosen.values())) {
      entities.put(e.id(), e);
    }
    Map<Integer, Entity> out = new HashMap<>();
    chosen.forEach(
        (index, id) -> {
          Entity e = entities.get(id);
          if (e != null) {
            out.put(index, e);
          }
        });
    return out;
  }

  private Entity create(
      Scope scope,
      String key,
      Map<String, String> names,
      Map<String, String> types,
      float[] vector,
      Instant now,
      Pending pending) {
    Entity created =
        new Entity(
            engine.config.ids().get(),
            names.get(key),
            key,
            types.get(key),
            vector,
            1,
            now,
            now,
            scope);
    pending.upserts.put(created.id(), created);
    pending.entities.put(scope.key() + "\u0000" + key, created);
    return created;
  }

  private Written resolveConflicts(
      String tenant,
      Scope scope,
      List<Relation> fresh,
      Instant messageTime,
      Instant now,
      UsageMeter usage,
      Pending pending) {
    if (fresh.isEmpty()) {
      return Written.NOTHING;
    }
    List<String> invalidated = new ArrayList<>();
    Set<String> endpoints = new java.util.LinkedHashSet<>();
    for (Relation r : fresh) {
      endpoints.add(r.sourceId());
      endpoints.add(r.targetId());
    }
    Map<String, Relation> existing = new LinkedHashMap<>();
    for (Relation r : graph.relationsOf(tenant, scope, endpoints, TimeView.ALL)) {
      existing.put(r.id(), r);
    }
    existing.putAll(pending.relations);
    List<GraphExtractor.Question> questions = new ArrayList<>();
    List<Relation> kept = new ArrayList<>();
    for (Relation r : fresh) {
      Relation same =
          existing.values().stream()
              .filter(
                  e ->
                      !e.invalidated()
                          && e.sourceId().equals(r.sourceId())
                          && e.name().equals(r.name())
                          && e.targetId().equals(r.targetId()))
              .findFirst()
              .orElse(null);
      if (same != null) {
        Relation merged = same.withProvenance(r.sourceMessageIds(), r.memoryIds());
        existing.put(merged.id(), merged);
        pending.relations.put(merged.id(), merged);
        continue;
      }
      List<GraphExtractor.Candidate> candidates =
          existing.values().stream()
              .filter(e -> !e.invalidated() && (e.touches(r.sourceId()) || e.touches(r.targetId())))
              .sorted(java.util.Comparator.comparing(Relation::createdAt).reversed())
              .limit(MAX_CANDIDATES)
              .map(e -> new GraphExtractor.Candidate(e.id(), e.fact(), e.validAt()))
              .toList();
      if (!candidates.isEmpty()) {
        questions.add(new GraphExtractor.Question(kept.size(), r.fact(), r.validAt(), candidates));
      }
      kept.add(r);
    }
    Set<Integer> duplicated = new java.util.HashSet<>();
    if (!questions.isEmpty()) {
      Map<Integer, GraphExtractor.Question> byIndex = new HashMap<>();
      questions.forEach(q -> byIndex.put(q.index(), q));
      for (GraphExtractor.Verdict v :
          engine.config.graphExtractor().orElseThrow().judge(questions, usage)) {
        GraphExtractor.Question q = byIndex.get(v.index());
        if (q == null) {
          continue;
        }
        Set<String> allowed = new java.util.HashSet<>();
        q.candidates().forEach(c -> allowed.add(c.id()));
        Relation neu = kept.get(v.index());
        for (String id : v.duplicates()) {
          if (allowed.contains(id) && !duplicated.contains(v.index())) {
            Relation merged =
                existing.get(id).withProvenance(neu.sourceMessageIds(), neu.memoryIds());
            existing.put(id, merged);
            pending.relations.put(id, merged);
            duplicated.add(v.index());
          }
        }
        for (String id : v.contradicted()) {
          Relation old = existing.get(id);
          if (!allowed.contains(id) || old == null || old.invalidated()) {
            continue;
          }
          Instant end = neu.validAt() != null ? neu.validAt() : messageTime;
          if (old.validAt() != null && old.validAt().isAfter(end)) {
            // Out of order: the old relation began after the new one; the new one is born ended.
            kept.set(v.index(), neu.invalidate(old.validAt(), now));
            continue;
          }
          Relation ended = old.invalidate(end, now);
          existing.put(id, ended);
          pending.relations.put(id, ended);
          invalidated.add(id);
        }
      }
    }
    List<String> added = new ArrayList<>();
    for (int i = 0; i < kept.size(); i++) {
      if (!duplicated.contains(i)) {
        pending.relations.put(kept.get(i).id(), kept.get(i));
        added.add(kept.get(i).id());
      }
    }
    return new Written(added, invalidated);
  }
}

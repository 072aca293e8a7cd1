package dev.engram.engine;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.ChangePipelines;
import dev.engram.GraphRelation;
import dev.engram.Hashes;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.RelationChanges;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.TokenCounter;
import dev.engram.filter.Filter;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.GraphExtractor;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryInference;
import dev.engram.spi.MemoryInference.PlannedChange;
import dev.engram.spi.ScopeLease;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.UsageMeter;
import dev.engram.text.Passage;
import dev.engram.text.Passages;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The add path: validate, plan (verbatim or through the configured {@link MemoryInference}), embed
 * the new texts, and commit memories, history rows and window messages in one change set. With
 * graph memory on, every add (also {@code infer=false}, as in mem0) goes through the {@link
 * GraphWriter} under the scope lock, and its graph changes commit in the same change set.
 */
final class AddPath {
  private static final Logger LOG = LoggerFactory.getLogger(AddPath.class);

  private final Engine engine;
  private final HybridSearch search;

  AddPath(Engine engine, HybridSearch search) {
    this.engine = engine;
    this.search = search;
  }

  AddResult add(String tenant, AddRequest request) {
    return addBatch(tenant, List.of(request)).get(0);
  }

  /** The edge checks of {@link #addBatch}, for one request, without running it. */
  void check(AddRequest r) {
    RequestChecks.checkAdd(r, engine.config.maxTextLength(), engine.config.maxMessagesPerAdd());
  }

  /**
   * Plans every request, then commits all of them in one change set. The scope locks of the
   * requests that need one are all taken first, in stripe order ({@link ScopeLocks#lockAll}), so
   * batches over the same scopes in any order cannot deadlock.
   */
  List<AddResult> addBatch(String tenant, List<AddRequest> given) {
    for (AddRequest r : given) {
      check(r);
    }
    Instant received = engine.config.clock().instant();
    List<AddRequest> requests = given.stream().map(r -> timed(r, received)).toList();
    List<Scope> locked =
        requests.stream()
            .filter(r -> r.infer() || engine.graphEnabled())
            .map(AddRequest::scope)
            .toList();
    List<ReentrantLock> held = engine.scopeLocks.lockAll(tenant, locked);
    List<ScopeLease> leases = new ArrayList<>();
    try {
      // The storage's own scope locks (across processes), one per distinct scope, in one global
      // order as well.
      for (Scope scope :
          new java.util.TreeMap<>(
                  locked.stream().distinct().collect(Collectors.toMap(Scope::key, sc -> sc)))
              .values()) {
        leases.add(engine.config.storage().lockScope(tenant, scope));
      }
      List<Staged> staged = new ArrayList<>(requests.size());
      Map<String, Optional<Message>> lastSaid =
          new HashMap<>(); // per scope key: the message before the next add's
      for (AddRequest r : requests) {
        Optional<Message> previous =
            engine.config.sourceContext()
                ? lastSaid.computeIfAbsent(r.scope().key(), k -> lastWindowMessage(tenant, r))
                : Optional.empty();
        staged.add(stage(tenant, r, previous));
        lastSaid.put(r.scope().key(), lastSaid(r.messages()).or(() -> previous));
      }
      Map<String, float[]> embedded = embed(staged);
      GraphChanges graphChanges = GraphChanges.NONE;
      GraphWriter.Pending pending = new GraphWriter.Pending();
      if (engine.graphEnabled()) {
        GraphWriter writer = new GraphWriter(engine, engine.graph);
        for (Staged s : staged) {
          GraphWriter.Written w = writer.write(tenant, graphInput(s), pending, embedded);
          s.addedRelations.addAll(w.added());
          s.invalidatedRelations.addAll(w.invalidated());
        }
        graphChanges = pending.changes();
      }
      if (engine.graph != null) {
        graphChanges = contradictDeleted(tenant, staged, graphChanges);
      }
      List<MemoryChange> changes = new ArrayList<>();
      List<ChangeSet.WindowAppend> windows = new ArrayList<>();
      for (Staged s : staged) {
        changes.addAll(s.changes);
        List<Message> conversational =
            s.request.messages().stream()
                .filter(m -> m.role() != Role.SYSTEM)
                .map(
                    m ->
                        m.timestamp() == null && s.request.timestamp() != null
                            ? m.withTimestamp(s.request.timestamp())
                            : m)
                .collect(Collectors.toList());
        if (!conversational.isEmpty()) {
          s.window =
              new ChangeSet.WindowAppend(
                  s.request.scope(), conversational, engine.config.windowSize());
          windows.add(s.window);
        }
      }
      engine.commit(new ChangeSet(tenant, changes, windows, graphChanges));
      for (Staged s : staged) {
        if (s.request.infer() && s.window != null) {
          engine.refreshSummaryAsync(tenant, s.window.scope(), s.window.messages());
        }
      }
      List<AddResult> results = new ArrayList<>(staged.size());
      RelationReport report =
          engine.graphEnabled() ? new RelationReport(tenant, graphChanges, pending) : null;
      for (Staged s : staged) {
        results.add(
            new AddResult(
                s.events(),
                s.usage.snapshot(),
                report == null
                    ? Optional.empty()
                    : Optional.of(report.of(s.addedRelations, s.invalidatedRelations))));
      }
      return results;
    } finally {
      for (int i = leases.size() - 1; i >= 0; i--) {
        leases.get(i).close();
      }
      ScopeLocks.unlockAll(held);
    }
  }

  /**
   * The request with a time for every message: a message without its own timestamp, in a request
   * without one, was said when the add was received ({@code received}, the engine clock's instant
   * at the start of the add, read once per add). So relative dates resolve, memories get an {@code
   * event_time}, and graph relations a {@code valid_at} also when the caller gives no time.
   */
  private static AddRequest timed(AddRequest r, Instant received) {
    if (r.timestamp() != null || r.messages().stream().allMatch(m -> m.timestamp() != null)) {
      return r;
    }
    List<Message> messages =
        r.messages().stream()
            .map(m -> m.timestamp() == null ? m.withTimestamp(received) : m)
            .toList();
    return new AddRequest(r.scope(), messages, r.metadata(), r.infer(), null, r.expiration());
  }

  private static GraphExtractor.Input graphInput(Staged s) {
    List<GraphExtractor.NewMemory> created = new ArrayList<>();
    for (MemoryChange c : s.changes) {
      if (c.event() == dev.engram.EventType.ADD || c.event() == dev.engram.EventType.UPDATE) {
        created.add(
            new GraphExtractor.NewMemory(
                c.memory().id(),
                c.memory().item().text(),
                c.actorId(),
                c.memory().item().sourceIds()));
      }
    }
    List<Message> messages =
        s.request.messages().stream().filter(m -> m.role() != Role.SYSTEM).toList();
    return new GraphExtractor.Input(
        s.request.scope(), messages, messageTime(s.request), created, s.usage);
  }

  /**
   * The request's conversation time: its timestamp, else its latest non-system message's, else
   * null.
   */
  private static Instant messageTime(AddRequest r) {
    if (r.timestamp() != null) {
      return r.timestamp();
    }
    Instant at = null;
    for (Message m : r.messages()) {
      if (m.role() != Role.SYSTEM
          && m.timestamp() != null
          && (at == null || m.timestamp().isAfter(at))) {
        at = m.timestamp();
      }
    }
    return at;
  }

  /**
   * The add's graph changes plus the invalidation of the relations that only memories this add's
   * pipeline deletes supported ({@link GraphRetirement#contradict}; {@code invalidAt} = the
   * request's message time): a conflict never erases. Pipeline deletes happen only for {@code
   * infer=true} requests, whose scope lock is held.
   */
  private GraphChanges contradictDeleted(
      String tenant, List<Staged> staged, GraphChanges graphChanges) {
    Map<String, Instant> deletedAt = new LinkedHashMap<>();
    Set<String> created = new HashSet<>();
    Instant now = engine.config.clock().instant();
    for (Staged s : staged) {
      Instant at = null;
      for (MemoryChange c : s.changes) {
        if (c.event() != dev.engram.EventType.DELETE) {
          created.add(c.memory().id());
          continue;
        }
        if (at == null) {
          Instant messageTime = messageTime(s.request);
          at = messageTime != null ? messageTime : now;
        }
        deletedAt.put(c.memory().id(), at);
      }
    }
    if (deletedAt.isEmpty()) {
      return graphChanges;
    }
    GraphChanges after =
        new GraphRetirement(engine).contradict(tenant, deletedAt, created, graphChanges);
    Set<String> endedBefore = new HashSet<>();
    graphChanges.relations().stream()
        .filter(Relation::invalidated)
        .forEach(r -> endedBefore.add(r.id()));
    for (Relation r : after.relations()) {
      if (r.invalidated() && !endedBefore.contains(r.id())) {
        for (Staged s : staged) {
          if (s.changes.stream()
              .anyMatch(
                  c ->
                      c.event() == dev.engram.EventType.DELETE
                          && r.memoryIds().contains(c.memory().id()))) {
            s.invalidatedRelations.add(r.id());
            break;
          }
        }
      }
    }
    return after;
  }

  /**
   * Renders the relations an add wrote as API records, endpoint names taken from the add's own
   * entity writes.
   */
  private final class RelationReport {
    private final Map<String, Relation> relations = new HashMap<>();
    private final Map<String, String> names;

    RelationReport(String tenant, GraphChanges changes, GraphWriter.Pending pending) {
      changes.relations().forEach(r -> relations.put(r.id(), r));
      names =
          GraphSearch.entityNames(
              engine.graph, tenant, changes.relations(), pending.upserts.values());
    }

    RelationChanges of(List<String> added, List<String> invalidated) {
      return new RelationChanges(render(added), render(invalidated));
    }

    private List<GraphRelation> render(List<String> ids) {
      List<Relation> written =
          new java.util.LinkedHashSet<>(ids)
              .stream().map(relations::get).filter(Objects::nonNull).toList();
      return GraphSearch.render(written, names, r -> 1.0);
    }
  }

  /** One request's planned changes, before embedding. */
  private static final class Staged {
    final AddRequest request;
    final List<MemoryChange> changes = new ArrayList<>();
    final List<MemoryItem> toEmbed = new ArrayList<>();
    final List<MemoryEvent> events = new ArrayList<>();
    final UsageMeter usage = new UsageMeter();
    final List<String> addedRelations = new ArrayList<>();
    final List<String> invalidatedRelations = new ArrayList<>();
    ChangeSet.WindowAppend window;
    private final int contextPassageTokens;
    private final TokenCounter counter;
    private final Map<String, List<Passage>> passages = new HashMap<>();

    /**
     * What a memory drawn from a long message embeds as its context embedding: the passage that
     * holds it, shared by every memory of that passage (embedded once), by memory id.
     */
    final Map<String, String> contextEmbeddingTexts = new HashMap<>();

    Staged(AddRequest request, int contextPassageTokens, TokenCounter counter) {
      this.request = request;
      this.contextPassageTokens = contextPassageTokens;
      this.counter = counter;
    }

    /**
     * The passages of a message content longer than the context passage limit ({@link
     * dev.engram.Engram.Config#contextPassageTokens()}), none for a shorter one: where a memory
     * drawn from it finds its source context. Each content split once per add, however many
     * memories it gives.
     */
    List<Passage> passagesOf(String content) {
      return passages.computeIfAbsent(
          content,
          c ->
              counter.count(c) <= contextPassageTokens
                  ? List.of()
                  : Passages.split(c, contextPassageTokens, counter));
    }

    List<MemoryEvent> events() {
      return List.copyOf(events);
    }

    /**
     * Adds a change and the event it reports (the event does not depend on the embedding filled in
     * later).
     */
    void change(MemoryChange c) {
      changes.add(c);
      MemoryItem m = c.memory().item();
      events.add(
          new MemoryEvent(
              m.id(),
              m.text(),
              c.event(),
              c.event() == dev.engram.EventType.UPDATE ? c.previousText() : null,
              c.actorId(),
              c.role()));
    }
  }

  /**
   * A new or changed memory's source context ({@link SourceContext}), or none when they are off.
   */
  private String sourceContext(
      Staged s, String memoryId, Optional<Message> previous, List<String> sourceIds, String text) {
    if (!engine.config.sourceContext()) {
      return "";
    }
    SourceContext.Drawn drawn =
        SourceContext.draw(s.request.messages(), previous, sourceIds, text, s::passagesOf);
    drawn.passage().ifPresent(passage -> s.contextEmbeddingTexts.put(memoryId, passage));
    return drawn.context();
  }

  /** The last message of the request's scope's window, if any. */
  private Optional<Message> lastWindowMessage(String tenant, AddRequest r) {
    List<Message> recent = engine.store.recentMessages(tenant, r.scope(), 1);
    return recent.isEmpty() ? Optional.empty() : Optional.of(recent.get(recent.size() - 1));
  }

  /** The last message of an add that the window keeps (not a system message). */
  private static Optional<Message> lastSaid(List<Message> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() != Role.SYSTEM) {
        return Optional.of(messages.get(i));
      }
    }
    return Optional.empty();
  }

  private Staged stage(String tenant, AddRequest r, Optional<Message> previous) {
    Staged s = new Staged(r, engine.config.contextPassageTokens(), engine.config.tokenCounter());
    List<PlannedChange> plan = r.infer() ? infer(tenant, r, s.usage) : verbatim(r);
    String pipeline = r.infer() ? engine.config.inference().pipelineName() : ChangePipelines.RAW;
    Instant now = engine.config.clock().instant();
    Set<String> touched = new HashSet<>();
    Map<List<String>, Integer> factsOfMessages = r.infer() ? factsOfMessages(plan) : Map.of();
    for (PlannedChange p : plan) {
      if (p instanceof MemoryInference.Add a) {
        String text = RequestChecks.checkText("memory", a.text(), engine.config.maxTextLength());
        int facts = factsOfMessages.getOrDefault(a.sourceIds(), 0);
        MemoryItem item =
            new MemoryItem(
                engine.config.ids().get(),
                text,
                Hashes.md5(text),
                withPlanned(
                    r.metadata(),
                    facts >= 2
                        ? withEntry(a.metadata(), MemoryItem.FACT_COUNT, facts)
                        : a.metadata()),
                r.scope().userId().orElse(null),
                r.scope().agentId().orElse(null),
                r.scope().runId().orElse(null),
                a.actorId(),
                a.role(),
                now,
                now,
                a.eventTime() != null ? a.eventTime() : r.timestamp(),
                a.sourceIds(),
                r.expiration());
        s.toEmbed.add(item);
        s.change(
            MemoryChange.add(
                new StoredMemory(
                    tenant,
                    item,
                    new float[0],
                    a.metadata().containsKey(MemoryItem.PASSAGE_START)
                        ? "" // a passage of a long message is its own context
                        : sourceContext(s, item.id(), previous, a.sourceIds(), text)),
                a.actorId(),
                a.role(),
                pipeline));
        continue;
      }
      String id = targetId(p);
      Optional<StoredMemory> existing =
          engine
              .store
              .get(tenant, id)
              .filter(
                  m -> r.scope().contains(m.item().userId(), m.item().agentId(), m.item().runId()));
      if (existing.isEmpty()) {
        LOG.warn(
            "inference referred to memory {} which is not in scope {}; ignored", id, r.scope());
        continue;
      }
      if (!touched.add(id)) {
        LOG.warn("inference changed memory {} twice in one add; the second change is ignored", id);
        continue;
      }
      MemoryItem old = existing.get().item();
      if (p instanceof MemoryInference.Update u) {
        String text = RequestChecks.checkText("memory", u.text(), engine.config.maxTextLength());
        if (text.equals(old.text())) {
          s.events.add(
              new MemoryEvent(id, old.text(), dev.engram.EventType.NOOP, null, null, null));
          continue;
        }
        MemoryItem updated = old.withContent(text, old.metadata(), old.expirationDate(), now);
        s.toEmbed.add(updated);
        // the exchange that changed the fact is its context now; the old one told the old fact
        s.change(
            MemoryChange.update(
                new StoredMemory(
                    tenant,
                    updated,
                    new float[0],
                    sourceContext(s, updated.id(), previous, List.of(), text)),
                old.text(),
                pipeline));
      } else if (p instanceof MemoryInference.Delete) {
        s.change(MemoryChange.delete(existing.get(), pipeline, now));
      } else {
        s.events.add(new MemoryEvent(id, old.text(), dev.engram.EventType.NOOP, null, null, null));
      }
    }
    return s;
  }

  private static String targetId(PlannedChange p) {
    if (p instanceof MemoryInference.Update u) {
      return u.memoryId();
    }
    if (p instanceof MemoryInference.Delete d) {
      return d.memoryId();
    }
    return ((MemoryInference.Noop) p).memoryId();
  }

  /**
   * How many facts the plan adds from each list of source messages: its adds that are not passages
   * of a message kept as said ({@link MemoryItem#PASSAGE_START}), counted by their source ids.
   */
  private static Map<List<String>, Integer> factsOfMessages(List<PlannedChange> plan) {
    Map<List<String>, Integer> out = new HashMap<>();
    for (PlannedChange p : plan) {
      if (p instanceof MemoryInference.Add a
          && !a.sourceIds().isEmpty()
          && !a.metadata().containsKey(MemoryItem.PASSAGE_START)) {
        out.merge(a.sourceIds(), 1, Integer::sum);
      }
    }
    return out;
  }

  /** {@code metadata} with one more entry. */
  private static Map<String, Object> withEntry(
      Map<String, Object> metadata, String key, Object value) {
    Map<String, Object> out = new LinkedHashMap<>(metadata);
    out.put(key, value);
    return out;
  }

  /** The add's metadata with what the plan gives the memory beside it (the plan's keys win). */
  private static Map<String, Object> withPlanned(
      Map<String, Object> metadata, Map<String, Object> planned) {
    if (planned.isEmpty()) {
      return metadata;
    }
    Map<String, Object> merged = new LinkedHashMap<>(metadata == null ? Map.of() : metadata);
    merged.putAll(planned);
    return merged;
  }

  /**
   * The configured inference's plan; its context carries the engine's passage limit, at which
   * {@link VerbatimInference} splits long messages.
   */
  private List<PlannedChange> infer(String tenant, AddRequest r, UsageMeter usage) {
    return engine.config.inference().plan(context(tenant, r, usage));
  }

  /**
   * An {@code infer=false} add: each non-system message verbatim, a long one as its passages
   * ({@link VerbatimPassages}, at the passage limit {@link
   * dev.engram.Engram.Config#passageTokens()}).
   */
  private List<PlannedChange> verbatim(AddRequest r) {
    List<PlannedChange> out = new ArrayList<>();
    for (Message m : r.messages()) {
      if (m.role() == Role.SYSTEM) {
        continue;
      }
      out.addAll(
          VerbatimPassages.of(
              m, r.timestamp(), engine.config.passageTokens(), engine.config.tokenCounter()));
    }
    return out;
  }

  private MemoryInference.InferenceContext context(String tenant, AddRequest r, UsageMeter usage) {
    Scope scope = r.scope();
    MemoryInference.ScopeMemories memories =
        new MemoryInference.ScopeMemories() {
          @Override
          public List<MemoryItem> similar(String text, int k) {
            // the plain fused ranking: the ranking steps serve questions (a fact's session
            // neighbours, its dates), not
            // the search for what a new fact repeats or changes
            SearchRequest q =
                SearchRequest.builder(scope, text)
                    .topK(Math.max(1, Math.min(k, SearchRequest.MAX_TOP_K)))
                    .ranking(Ranking.NONE)
                    .build();
            return search.search(tenant, q).hits().stream()
                .map(h -> h.memory())
                .collect(Collectors.toList());
          }

          @Override
          public List<MemoryItem> sharingWords(String text, int k) {
            IndexQuery q = new IndexQuery(tenant, scope, Filter.all(), false, engine.today());
            List<String> ids =
                engine
                    .index
                    .repeatCandidates(q, text, Math.max(1, Math.min(k, SearchRequest.MAX_TOP_K)))
                    .stream()
                    .map(SearchIndex.Candidate::id)
                    .toList();
            return new SearchRecords(engine.store, tenant)
                .get(ids).stream().map(StoredMemory::item).toList();
          }

          @Override
          public List<MemoryItem> withText(String text) {
            return engine.store.findByHash(tenant, scope, Hashes.md5(text.trim()));
          }
        };
    return new MemoryInference.InferenceContext(
        tenant,
        scope,
        r.messages(),
        engine.store.recentMessages(tenant, scope, engine.config.windowSize()),
        r.metadata(),
        r.timestamp(),
        memories,
        engine.store.summary(tenant, scope).orElse(""),
        usage,
        engine.config.passageTokens(),
        engine.config.tokenCounter(),
        engine.config.contextEmbeddings());
  }

  /**
   * Embeds every new or changed text of the batch in one call and fills in the change set; with
   * context embeddings on, the same call embeds the context texts of such memories too, each
   * distinct one once ({@link ContextVectors}: a memory drawn from a long message takes the passage
   * that holds it). With the graph on, returns each text embedded with its vector, for the graph's
   * facts; else nothing.
   */
  private Map<String, float[]> embed(List<Staged> staged) {
    List<String> ids =
        new ArrayList<>(); // whose vector each text gives: memory texts first, then contexts
    List<String> texts = new ArrayList<>();
    for (Staged s : staged) {
      for (MemoryItem m : s.toEmbed) {
        ids.add(m.id());
        texts.add(EmbeddingTexts.of(m));
      }
    }
    int memoryTexts = texts.size();
    ContextVectors contexts = new ContextVectors(memoryTexts);
    if (engine.config.contextEmbeddings()) {
      for (Staged s : staged) {
        for (MemoryChange c : s.changes) {
          if (c.event() != dev.engram.EventType.DELETE && !c.memory().context().isEmpty()) {
            String id = c.memory().id();
            String passage = s.contextEmbeddingTexts.get(id);
            if (passage != null) {
              contexts.passage(id, EmbeddingTexts.holdingPassage(passage));
            } else {
              contexts.context(id, EmbeddingTexts.context(c.memory().context()));
            }
          }
        }
      }
      texts.addAll(contexts.texts());
    }
    List<float[]> vectors =
        Vectors.embedDocuments(engine.config.embedder(), texts, "a memory text or context");
    Map<String, float[]> embedded = new HashMap<>();
    if (engine.graphEnabled()) {
      for (int i = 0; i < texts.size(); i++) {
        embedded.putIfAbsent(texts.get(i), vectors.get(i));
      }
    }
    Map<String, float[]> byId = new HashMap<>();
    for (int i = 0; i < memoryTexts; i++) {
      byId.put(ids.get(i), vectors.get(i));
    }
    for (Staged s : staged) {
      for (int j = 0; j < s.changes.size(); j++) {
        MemoryChange c = s.changes.get(j);
        if (c.event() == dev.engram.EventType.DELETE) {
          continue;
        }
        StoredMemory m = c.memory();
        float[] embedding = byId.get(m.id());
        if (embedding != null) {
          m = m.withEmbedding(embedding);
        }
        Optional<float[]> contextEmbedding =
            contexts.of(m.id(), vectors, embedding != null ? embedding : m.embeddingView());
        if (contextEmbedding.isPresent()) {
          m = m.withContextEmbedding(contextEmbedding.get());
        }
        if (embedding != null || contextEmbedding.isPresent()) {
          s.changes.set(j, c.withMemory(m));
        }
      }
    }
    return embedded;
  }
}

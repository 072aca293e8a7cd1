package dev.engram.bench.locomo;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.GraphRelation;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TokenCounter;
import dev.engram.bench.locomo.Locomo.Conversation;
import dev.engram.bench.locomo.Locomo.Session;
import dev.engram.bench.locomo.Locomo.Turn;
import dev.engram.bench.locomo.LocomoBench.ScopeLayout;
import dev.engram.bench.scale.DataDirectories;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryInference;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;
import java.util.function.UnaryOperator;

/**
 * One conversation's memory in a fresh embedded data directory, laid out as {@link ScopeLayout}
 * says:
 *
 * <ul>
 *   <li>{@code CONVERSATION}: one scope, {@code user_id = <sample_id>}; every turn a user message
 *       named after its speaker (the actor);
 *   <li>{@code SPEAKER}: the Mem0 paper's harness; two scopes {@code user_id =
 *       <speaker>_<sample_id>} (whitespace in a name becomes {@code -}); every turn is added to
 *       both, as a user message in its speaker's scope and an assistant message in the other's.
 *       With an inference wrapped by {@link #ownFactsOnly}, a scope keeps only the added facts
 *       whose actor is its owner (as the paper's custom instructions extract from user messages
 *       only). A search asks both scopes for the top-k, merges the hits by score (the first
 *       speaker's first on ties), drops a hit whose text and source ids repeat a better one (a
 *       verbatim turn stored in both scopes), and keeps the top-k.
 * </ul>
 *
 * Each turn's message has its dia_id as source id and its session's time as timestamp. Not
 * thread-safe.
 */
final class ConversationStore implements AutoCloseable {
  private static final String IMAGE_ONLY = "(shared an image)";

  /**
   * Longer than any run, so that the index is never committed on a timer: its segments then depend
   * only on the sequence of adds and searches (each search after a change refreshes), and a run's
   * results are reproducible. With the default 2 s, how many segments the raw mode's 400 quick adds
   * fall into depends on timing, and so do the approximate (HNSW) dense candidates: evidence recall
   * varied by up to 0.01 from run to run.
   */
  static final Duration INDEX_COMMIT_INTERVAL = Duration.ofHours(24);

  /**
   * The least text limit ({@code Engram.Builder#maxTextLength}) a store is opened with: 1 MiB
   * characters, the library's default; a data file with a longer turn raises it to that turn's
   * length (BEAM's longest is 348,853 characters), so that a long turn is measured instead of
   * aborting the run.
   */
  static final int TEXT_LIMIT_FLOOR = 1 << 20;

  /**
   * Room above the longest turn for what a stored text adds to it: the {@code <speaker>: } prefix.
   */
  private static final int TEXT_LIMIT_MARGIN = 1024;

  private final Path dir;
  private final Memory memory;
  private final Conversation conversation;

  /**
   * The scope of each owner: the speaker name in the speaker layout, "" in the conversation layout.
   */
  private final Map<String, Scope> scopes;

  private int budgetTokens;
  private double threshold = SearchRequest.DEFAULT_THRESHOLD;
  private Ranking ranking = Ranking.DEFAULT;

  private ConversationStore(
      Path dir, Memory memory, Conversation conversation, Map<String, Scope> scopes) {
    this.dir = dir;
    this.memory = memory;
    this.conversation = conversation;
    this.scopes = scopes;
  }

  /**
   * The text limit a store of this conversation is opened with: {@link #TEXT_LIMIT_FLOOR}, or more
   * if a turn (with its speaker prefix) is longer, so that no turn of the data is refused.
   */
  static int textLimit(Conversation c) {
    return Math.max(TEXT_LIMIT_FLOOR, c.longestTurnChars() + TEXT_LIMIT_MARGIN);
  }

  /**
   * Opens a fresh store in {@code dir}; {@code setup} sets the engine's inference (and whatever
   * else it needs) after the storage, embedder, fusion and the text limit ({@link #textLimit}).
   */
  static ConversationStore open(
      Path dir,
      Conversation c,
      ScopeLayout layout,
      Embedder embedder,
      Fusion fusion,
      UnaryOperator<Engram.Builder> setup) {
    Map<String, Scope> scopes = new LinkedHashMap<>();
    if (layout == ScopeLayout.CONVERSATION) {
      scopes.put("", Scope.user(c.sampleId()));
    } else {
      scopes.put(c.speakerA(), Scope.user(speakerUserId(c.speakerA(), c.sampleId())));
      scopes.put(c.speakerB(), Scope.user(speakerUserId(c.speakerB(), c.sampleId())));
    }
    EmbeddedStorage storage = EmbeddedStorage.open(dir, embedder.dimension());
    Engram.Builder builder =
        Engram.builder()
            .storage(storage)
            .embedder(embedder)
            .fusion(fusion)
            .indexCommitInterval(INDEX_COMMIT_INTERVAL)
            .maxTextLength(textLimit(c));
    try {
      builder = setup.apply(builder);
    } catch (RuntimeException e) {
      try {
        storage.close();
      } catch (IOException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      DataDirectories.deleteTree(dir);
      throw e;
    }
    return new ConversationStore(dir, builder.build(), c, scopes);
  }

  /**
   * In the speaker layout, wraps an inference so that each speaker's scope keeps only the facts
   * whose actor is the speaker ({@link OwnFacts}); in the conversation layout, returns it as it is.
   */
  static MemoryInference ownFactsOnly(
      MemoryInference inference, Conversation c, ScopeLayout layout) {
    if (layout == ScopeLayout.CONVERSATION) {
      return inference;
    }
    return new OwnFacts(
        inference,
        Map.of(
            speakerUserId(c.speakerA(), c.sampleId()),
            c.speakerA(),
            speakerUserId(c.speakerB(), c.sampleId()),
            c.speakerB()));
  }

  /**
   * The user id of a speaker's scope: {@code <speaker>_<sampleId>}, whitespace replaced by {@code
   * -}.
   */
  static String speakerUserId(String speaker, String sampleId) {
    return (speaker.strip() + "_" + sampleId.strip()).replaceAll("\\s+", "-");
  }

  /** The scopes in use, in order. */
  List<Scope> scopes() {
    return List.copyOf(scopes.values());
  }

  /**
   * Adds the conversation, session by session, {@code turnsPerAdd} consecutive turns of a session
   * per add (0 for the whole session), each turn's text prefixed with {@code <speaker>: } if {@code
   * speakerPrefix}; {@code progress} receives the number of turns added after each group.
   */
  void ingest(int turnsPerAdd, boolean infer, boolean speakerPrefix, IntConsumer progress) {
    for (Session s : conversation.sessions()) {
      List<Turn> turns = s.turns();
      int step = turnsPerAdd == 0 ? Math.max(1, turns.size()) : turnsPerAdd;
      for (int from = 0; from < turns.size(); from += step) {
        List<Turn> group = turns.subList(from, Math.min(turns.size(), from + step));
        for (Map.Entry<String, Scope> owner : scopes.entrySet()) {
          List<Message> messages = new ArrayList<>();
          for (Turn t : group) {
            messages.add(message(t, s, owner.getKey(), speakerPrefix));
          }
          memory.add(
              AddRequest.builder(owner.getValue())
                  .messages(messages)
                  .timestamp(s.dateTime())
                  .infer(infer)
                  .build());
        }
        progress.accept(group.size());
      }
    }
  }

  /**
   * A turn as the message its owner's scope gets: a user message if the owner said it (or the
   * layout has one scope, owner ""), else an assistant message; named after its speaker, at its
   * session's time, its dia_id as source id.
   */
  static Message message(Turn t, Session s, String owner, boolean speakerPrefix) {
    String text = t.text().isBlank() ? IMAGE_ONLY : t.text();
    text = speakerPrefix ? t.speaker() + ": " + text : text;
    Role role = owner.isEmpty() || owner.equals(t.speaker()) ? Role.USER : Role.ASSISTANT;
    return new Message(role, text, t.speaker(), s.dateTime(), t.diaId());
  }

  /** The top-k hits for a question (merged over both scopes in the speaker layout). */
  List<SearchHit> search(String query, int topK) {
    return retrieve(query, topK).hits();
  }

  /**
   * How many times {@code topK} results a graph run asks for, to have {@code topK} distinct
   * relations left.
   */
  static final int RELATION_OVERFETCH = 3;

  /**
   * The top-k hits and, with the graph memory on, up to k relations for a question, as the context
   * an answer model would get. In the speaker layout both scopes are asked and each list is merged
   * by score (the first speaker's first on ties), an entry whose text (fact) and source ids repeat
   * a better one dropped, and cut to the top-k. With {@code graph}, the search asks for {@link
   * #RELATION_OVERFETCH} times k results, keeps the first k memories and then the best relations
   * whose fact is neither the text of a kept memory nor the fact of a better relation (the offline
   * graph's facts are memory texts, and a memory naming n entities states n(n-1)/2 relations), up
   * to k: a context line is never repeated.
   */
  SearchResult retrieve(String query, int topK, boolean graph) {
    if (!graph) {
      return retrieve(query, topK);
    }
    SearchResult wide = retrieve(query, topK * RELATION_OVERFETCH);
    List<SearchHit> hits =
        wide.hits()
            .subList(0, budgetTokens > 0 ? wide.hits().size() : Math.min(topK, wide.hits().size()));
    Set<String> shown = new HashSet<>();
    hits.forEach(h -> shown.add(h.memory().text().strip()));
    List<GraphRelation> relations = new ArrayList<>();
    for (GraphRelation r : wide.relations()) {
      if (relations.size() == topK) {
        break;
      }
      if (shown.add(r.fact().strip())) {
        relations.add(r);
      }
    }
    return new SearchResult(List.copyOf(hits), relations);
  }

  /**
   * The top-k hits and, with the graph memory on, the top-k relations for a question. In the
   * speaker layout both scopes are asked and each list is merged by score (the first speaker's
   * first on ties), an entry whose text (fact) and source ids repeat a better one dropped, and cut
   * to the top-k.
   */
  SearchResult retrieve(String query, int topK) {
    if (scopes.size() == 1) {
      return memory.search(request(scopes.values().iterator().next(), query, topK));
    }
    List<SearchHit> hits = new ArrayList<>();
    List<GraphRelation> relations = new ArrayList<>();
    for (Scope scope : scopes.values()) {
      SearchResult r = memory.search(request(scope, query, topK));
      hits.addAll(r.hits());
      relations.addAll(r.relations());
    }
    hits.sort(Comparator.comparingDouble(SearchHit::score).reversed());
    relations.sort(Comparator.comparingDouble(GraphRelation::score).reversed());
    List<SearchHit> merged =
        top(
            hits,
            budgetTokens > 0 ? SearchRequest.MAX_TOP_K : topK,
            h -> List.of(h.memory().text(), h.memory().sourceIds()));
    if (budgetTokens > 0) {
      List<SearchHit> fitted = new ArrayList<>();
      int used = 0;
      for (SearchHit h : merged) {
        int cost =
            TokenCounter.cl100k().count(h.memory().text()); // as the engine counts its budget
        if (used + cost <= budgetTokens) {
          used += cost;
          fitted.add(h);
        }
      }
      merged = fitted;
    }
    return new SearchResult(merged, top(relations, topK, r -> List.of(r.fact(), r.sourceIds())));
  }

  private static <T> List<T> top(
      List<T> sorted, int topK, java.util.function.Function<T, List<Object>> key) {
    List<T> out = new ArrayList<>();
    Set<List<Object>> seen = new HashSet<>();
    for (T t : sorted) {
      if (out.size() == topK) {
        break;
      }
      if (seen.add(key.apply(t))) {
        out.add(t);
      }
    }
    return out;
  }

  /**
   * The source ids of the memories a relation was extracted with (its {@code memoryIds}, each
   * looked up in the record), in order; a memory that no longer exists contributes nothing. Since
   * relations carry the provenance of the message or memory they came from, the same as the
   * relation's own {@code sourceIds} for the offline graph; it differs where an extractor could not
   * tell and the relation names every message of its add.
   */
  Set<String> memorySourceIds(GraphRelation r) {
    Set<String> out = new LinkedHashSet<>();
    for (String id : r.memoryIds()) {
      memory.get(id).ifPresent(m -> out.addAll(m.sourceIds()));
    }
    return out;
  }

  /**
   * Sets how the following searches run: with a token budget ({@code budgetTokens > 0}: the best
   * memories that fit, top-k no longer applies; in the speaker layout the merged list is cut to the
   * budget again) and a threshold.
   */
  void searchWith(int budgetTokens, double threshold) {
    this.budgetTokens = budgetTokens;
    this.threshold = threshold;
  }

  /** The memory the store searches. */
  Memory memory() {
    return memory;
  }

  /** Sets the ranking steps of the following searches (default {@link Ranking#DEFAULT}). */
  void rankWith(Ranking value) {
    this.ranking = value;
  }

  private SearchRequest request(Scope scope, String query, int topK) {
    SearchRequest.Builder b =
        SearchRequest.builder(scope, query).threshold(threshold).ranking(ranking);
    return (budgetTokens > 0 ? b.maxTokens(budgetTokens) : b.topK(topK)).build();
  }

  /**
   * The fewest searches {@link #warmUp} runs. One pass over a BEAM conversation's 18 questions left
   * the JIT compiler compiling the search code through the timed pass (`bench locomo` on BEAM's
   * verbatim turns: search p50 13 ms, p95 22-24 ms, where a warm process searches the same store at
   * p50 7-8 ms, p95 9-11 ms); the p50 settled after 200 to 300 searches.
   */
  static final int WARM_UP_SEARCHES = 500;

  /**
   * Searches the queries in turn with the current settings, every one at least once and at least
   * {@link #WARM_UP_SEARCHES} searches in all, so that timings leave out class loading, cold
   * caches, the first search's flush of the ingest's last writes and the compilation of the search
   * code (which the ingest does not run: the offline extractor's repeat check reads the index
   * without a search's ranking). Returns the searches run.
   */
  int warmUp(List<String> queries) {
    if (queries.isEmpty()) {
      return 0;
    }
    int passes = Math.max(1, (WARM_UP_SEARCHES + queries.size() - 1) / queries.size());
    for (int pass = 0; pass < passes; pass++) {
      for (String q : queries) {
        search(q, SearchRequest.DEFAULT_TOP_K);
      }
    }
    return passes * queries.size();
  }

  /**
   * What the ingest kept, over all scopes, read in one pass over the memories.
   *
   * @param memoryTokens the cl100k tokens of every stored memory text
   * @param sourceIds the source ids of every stored memory: the turns something was kept of. A
   *     question's evidence recall against them is what no search can exceed ({@code
   *     evidence_recall_store})
   */
  record Stored(long memoryTokens, Set<String> sourceIds) {
    Stored {
      sourceIds = Set.copyOf(sourceIds);
    }
  }

  /** What the ingest kept: every stored memory, read once. */
  Stored stored() {
    long tokens = 0;
    Set<String> sources = new HashSet<>();
    for (Scope scope : scopes.values()) {
      for (MemoryItem m : memories(scope)) {
        tokens += TokenCounter.cl100k().count(m.text());
        sources.addAll(m.sourceIds());
      }
    }
    return new Stored(tokens, sources);
  }

  /** Every memory of a scope, in the store's list order. */
  List<MemoryItem> memories(Scope scope) {
    List<MemoryItem> out = new ArrayList<>();
    int offset = 0;
    while (true) {
      Page<MemoryItem> page =
          memory.list(ListRequest.of(scope).withPage(offset, ListRequest.MAX_LIMIT));
      out.addAll(page.items());
      if (!page.hasMore()) {
        return out;
      }
      offset += page.items().size();
    }
  }

  /** Closes the memory and deletes its data directory. */
  @Override
  public void close() {
    try {
      memory.close();
    } finally {
      DataDirectories.deleteTree(dir);
    }
  }

  /**
   * Keeps, of a plan's additions, those whose actor owns the scope; updates, deletes and no-ops
   * pass.
   */
  static final class OwnFacts implements MemoryInference {
    private final MemoryInference delegate;
    private final Map<String, String> ownerByUserId;

    OwnFacts(MemoryInference delegate, Map<String, String> ownerByUserId) {
      this.delegate = delegate;
      this.ownerByUserId = Map.copyOf(ownerByUserId);
    }

    /** The delegate's pipeline name: this only filters its plan. */
    @Override
    public String pipelineName() {
      return delegate.pipelineName();
    }

    @Override
    public List<PlannedChange> plan(InferenceContext context) {
      String owner = context.scope().userId().map(ownerByUserId::get).orElse(null);
      List<PlannedChange> out = new ArrayList<>();
      for (PlannedChange c : delegate.plan(context)) {
        if (!(c instanceof Add a) || owner == null || owner.equals(a.actorId())) {
          out.add(c);
        }
      }
      return out;
    }
  }
}

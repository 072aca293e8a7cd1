package dev.engram.engine;

import dev.engram.DimensionMismatchException;
import dev.engram.Engram;
import dev.engram.MemoryStatus;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.ValidationException;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.ConversationSummarizer;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.GraphOutbox;
import dev.engram.spi.GraphStore;
import dev.engram.spi.IndexOp;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.RestoredMemory;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import dev.engram.spi.StoredMemory;
import dev.engram.spi.UsageMeter;
import java.io.IOException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state shared by every tenant view: storage, models, locks and threads. Owns the one write
 * path into the record and the index: {@link #commit} applies a change set to the store, then the
 * same changes to the index, under one lock, so the index sees changes in sequence order.
 *
 * <p><b>Separate graph store.</b> When the graph lives outside the record ({@link
 * dev.engram.spi.Storage#graphCommitsWithRecords()} false) and the record has a {@link
 * GraphOutbox}, a change set's graph changes are committed into the outbox with its memory changes,
 * and then applied to the graph store from the outbox, oldest entry first; an entry leaves the
 * outbox only after the graph store applied it. Entries left by a crash or by a failed graph write
 * are applied when the engine opens, and else before the next read of the graph (through {@link
 * #graph}) or the graph changes of the next commit, so no newer graph change overtakes them.
 * Without an outbox the graph changes are applied to the graph store after the memory commit, and a
 * crash between the two commits loses them.
 */
final class Engine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  final Engram.Config config;
  final MemoryStore store;
  final SearchIndex index;

  /**
   * The graph store, or null without one; with an outbox, a view of it that first applies pending
   * outbox entries (see {@link CatchingUpGraphStore}).
   */
  final GraphStore graph;

  /** The graph store itself, or null without one. */
  private final GraphStore graphStore;

  /** True if the record applies a change set's graph changes in its own transaction. */
  final boolean graphInRecords;

  /**
   * The record's graph outbox, used for a separate graph store; null if the graph is in the record
   * or has none.
   */
  private final GraphOutbox outbox;

  /**
   * True while the outbox may hold entries the graph store has not applied; written under {@link
   * #writeLock}.
   */
  private volatile boolean outboxPending;

  final ScopeLocks scopeLocks = new ScopeLocks(64);

  /**
   * The memories' densities for the ranking step hubs: derived from the index, told of every memory
   * a write changes (with its scope, which a removal from the index no longer names) and forgotten
   * when the index is caught up.
   */
  final HubDensities hubDensities = new HubDensities();

  final ExecutorService asyncExecutor;

  /**
   * Embeds searches' queries and, when that pays, has their keyword lists read meanwhile on {@link
   * #keywordThreads} ({@link QueryEmbeddings}).
   */
  final QueryEmbeddings queryEmbeddings;

  /**
   * Reads searches' keyword lists while the searches embed their queries: up to two threads a core,
   * idle ones let go; a list handed over with none free is left to its search's thread ({@link
   * ClaimedTask}).
   */
  private final ExecutorService keywordThreads;

  private final ScheduledExecutorService committer;
  private final ExecutorService summaries;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicBoolean indexDirty = new AtomicBoolean();

  /**
   * An index write failed, or a repair could not finish: bring the index up to date before the next
   * use.
   */
  private final AtomicBoolean indexStale = new AtomicBoolean();

  /**
   * A search or commit of the index failed: recreate it and rebuild it from the record before the
   * next use.
   */
  private final AtomicBoolean indexDamaged = new AtomicBoolean();

  /**
   * Counts index recreations, so that a failure seen on an index already recreated does not
   * recreate it again.
   */
  private final AtomicLong indexEpoch = new AtomicLong();

  private final AtomicBoolean closed = new AtomicBoolean();

  private Engine(Engram.Config config) {
    this.config = config;
    this.store = config.storage().records();
    this.index = config.storage().index();
    this.graphStore = config.storage().graph().orElse(null);
    this.graphInRecords = graphStore != null && config.storage().graphCommitsWithRecords();
    this.outbox = graphStore == null || graphInRecords ? null : store.graphOutbox().orElse(null);
    this.outboxPending = outbox != null;
    this.graph =
        outbox == null ? graphStore : new CatchingUpGraphStore(graphStore, this::catchUpGraph);
    this.asyncExecutor =
        Executors.newFixedThreadPool(config.asyncThreads(), daemon("engram-async"));
    this.keywordThreads =
        new ThreadPoolExecutor(
            0,
            2 * Runtime.getRuntime().availableProcessors(),
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            daemon("engram-search-keywords"),
            new ThreadPoolExecutor.DiscardPolicy());
    this.queryEmbeddings = new QueryEmbeddings(keywordThreads, System::nanoTime);
    this.committer = Executors.newSingleThreadScheduledExecutor(daemon("engram-index-commit"));
    this.summaries = Executors.newSingleThreadExecutor(daemon("engram-summary"));
  }

  /**
   * Refreshes a scope's rolling summary in the background (one refresh at a time, in submission
   * order). A failure is logged and keeps the previous summary: the add it follows has already
   * committed.
   */
  void refreshSummaryAsync(String tenant, Scope scope, List<Message> newMessages) {
    Optional<ConversationSummarizer> configured = config.summarizer();
    if (configured.isEmpty() || newMessages.isEmpty() || closed.get()) {
      return;
    }
    ConversationSummarizer summarizer = configured.get();
    summaries.execute(
        () -> {
          try {
            String previous = store.summary(tenant, scope).orElse("");
            store.saveSummary(
                tenant, scope, summarizer.summarize(previous, newMessages, new UsageMeter()));
          } catch (RuntimeException e) {
            LOG.warn(
                "refreshing the conversation summary of {} failed; the previous summary is kept",
                scope,
                e);
          }
        });
  }

  /**
   * Opens the engine; if anything fails (the embedder check, the graph setting, the index, starting
   * the threads) the storage is closed (it was handed over), so its lock is released.
   */
  static Engine open(Engram.Config config) {
    Engine engine = null;
    try {
      checkEmbedder(config);
      engine = new Engine(config);
      engine.openIndex();
      engine.drainOutboxOnOpen();
      long ms = config.indexCommitInterval().toMillis();
      // Runs until close shuts the committer down; commitIndexQuietly reports its own failures, so
      // the future has
      // nothing to tell.
      Future<?> unused =
          engine.committer.scheduleWithFixedDelay(
              engine::commitIndexQuietly, ms, ms, TimeUnit.MILLISECONDS);
      return engine;
    } catch (RuntimeException | Error e) {
      if (engine != null) {
        engine.shutdownThreads();
      }
      try {
        config.storage().close();
      } catch (IOException | RuntimeException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  private static void checkEmbedder(Engram.Config config) {
    MemoryStore store = config.storage().records();
    EmbeddingSpec wanted =
        new EmbeddingSpec(config.embedder().modelId(), config.embedder().dimension());
    var recorded = store.embeddingSpec();
    if (recorded.isEmpty()) {
      store.recordEmbeddingSpec(wanted);
    } else if (recorded.get().dimension() != wanted.dimension()) {
      throw new DimensionMismatchException(
          "the data directory holds "
              + recorded.get().dimension()
              + "-dimensional embeddings from model '"
              + recorded.get().modelId()
              + "', but the configured embedder '"
              + wanted.modelId()
              + "' makes "
              + wanted.dimension()
              + "-dimensional ones; configure '"
              + recorded.get().modelId()
              + "' or use another data directory");
    } else if (!recorded.get().modelId().equals(wanted.modelId())) {
      throw new DimensionMismatchException(
          "the data directory was written with embedding model '"
              + recorded.get().modelId()
              + "', but the configured embedder is '"
              + wanted.modelId()
              + "'; their vectors are not comparable: configure '"
              + recorded.get().modelId()
              + "' or use another data directory");
    }
  }

  LocalDate today() {
    return LocalDate.ofInstant(config.clock().instant(), ZoneOffset.UTC);
  }

  /** True if adds write the graph memory. */
  boolean graphEnabled() {
    return graph != null && config.graphExtractor().isPresent();
  }

  /**
   * Commits a change set to the store and then to the index; returns the store's sequence number.
   * Graph changes go into the store's transaction if it applies them; for a separate graph store
   * they go into the store's outbox in the same transaction and are then applied from there (after
   * any older pending entry), or, without an outbox, they are applied to the graph store right
   * after the memory commit.
   *
   * <p>If the graph store fails, the memory changes stay committed (and indexed), the graph changes
   * stay in the outbox for the next graph read, commit or open to apply, and the graph store's
   * exception is thrown.
   */
  long commit(ChangeSet changes) {
    ensureOpen();
    writeLock.lock();
    try {
      boolean separateGraph = !graphInRecords && graph != null && !changes.graph().isEmpty();
      RuntimeException graphFailure = null;
      long seq;
      if (separateGraph && outbox != null) {
        seq = store.apply(changes.withGraphToOutbox());
        outboxPending = true;
        try {
          drainOutbox();
        } catch (RuntimeException e) {
          graphFailure = e;
        }
      } else {
        seq =
            store.apply(
                graphInRecords || changes.graph().isEmpty() ? changes : changes.withoutGraph());
        if (separateGraph) {
          graphStore.apply(changes.tenant(), changes.graph());
        }
      }
      List<IndexOp> ops = new ArrayList<>(changes.changes().size());
      List<StoredMemory> changed = new ArrayList<>(changes.changes().size());
      for (MemoryChange c : changes.changes()) {
        changed.add(c.memory());
        ops.add(
            switch (c.event()) {
              case ADD, UPDATE -> new IndexOp.Upsert(c.memory());
              case DELETE -> new IndexOp.Remove(c.memory().tenant(), c.memory().id());
              case NOOP -> throw new IllegalStateException("NOOP in a change set");
            });
      }
      hubDensities.changed(changed);
      hubDensities.changedRelations(changes.tenant(), changes.graph().relations());
      indexCommitted(ops, seq);
      if (graphFailure != null) {
        throw graphFailure;
      }
      return seq;
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Writes restored memories (an import) to the store in one transaction and then their current
   * states to the index, under the write lock like {@link #commit}. Memories whose id the tenant
   * already has, as a memory or as history, are left out; the check runs under the lock, so a
   * concurrent writer cannot slip one in between.
   *
   * @return the ids written, in order
   */
  List<String> restore(String tenant, List<RestoredMemory> memories) {
    ensureOpen();
    writeLock.lock();
    try {
      Set<String> existing =
          existingIds(tenant, memories.stream().map(RestoredMemory::id).toList());
      List<RestoredMemory> fresh =
          memories.stream().filter(m -> !existing.contains(m.id())).toList();
      if (fresh.isEmpty()) {
        return List.of();
      }
      long seq = store.restore(tenant, fresh);
      List<StoredMemory> current = fresh.stream().flatMap(m -> m.current().stream()).toList();
      List<IndexOp> ops = new ArrayList<>(current.size());
      current.forEach(m -> ops.add(new IndexOp.Upsert(m)));
      hubDensities.changed(current);
      indexCommitted(ops, seq);
      return fresh.stream().map(RestoredMemory::id).toList();
    } finally {
      writeLock.unlock();
    }
  }

  /** The ids among {@code ids} that the tenant has as a memory or in its history. */
  Set<String> existingIds(String tenant, List<String> ids) {
    Set<String> found = new HashSet<>();
    store.getAll(tenant, ids).forEach(m -> found.add(m.id()));
    for (String id : ids) {
      if (!found.contains(id) && !store.history(tenant, id).isEmpty()) {
        found.add(id);
      }
    }
    return found;
  }

  /**
   * Applies the outbox's pending entries to the graph store, oldest first, removing each after it
   * applied; stops at the first failure (that entry and the newer ones stay pending) and throws it.
   * Called under the write lock.
   */
  private void drainOutbox() {
    if (!outboxPending) {
      return;
    }
    for (GraphOutbox.Pending p : outbox.pending()) {
      graphStore.apply(p.tenant(), p.changes());
      outbox.done(p.seq());
    }
    outboxPending = false;
  }

  /**
   * Applies the outbox's pending entries to the graph store, if there may be any; throws the
   * graph's failure.
   */
  private void catchUpGraph() {
    if (!outboxPending) {
      return;
    }
    writeLock.lock();
    try {
      drainOutbox();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Applies graph changes a previous run committed to the outbox but not to the graph store (a
   * crash or a graph failure between the two commits). A failure is logged: the entries stay
   * pending for the next commit.
   */
  private void drainOutboxOnOpen() {
    if (outbox == null) {
      return;
    }
    writeLock.lock();
    try {
      drainOutbox();
    } catch (RuntimeException e) {
      LOG.error(
          "the graph store failed to apply graph changes pending in the outbox; they stay pending and are "
              + "applied before the next graph change",
          e);
    } finally {
      writeLock.unlock();
    }
  }

  /** Deletes a tenant's data in the store, then its documents in the index. */
  void reset(String tenant) {
    ensureOpen();
    writeLock.lock();
    try {
      store.reset(tenant);
      if (graphStore != null) {
        graphStore.reset(tenant);
      }
      hubDensities.forget(tenant);
      indexCommitted(List.of(new IndexOp.RemoveTenant(tenant)), store.lastSeq());
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Hands committed changes to the index: applies them, or, if the index needs a repair, repairs it
   * instead (the repair reads the change feed, which holds these changes already). Never throws:
   * the record is committed and is the truth; an index failure leaves the index marked for repair
   * before the next search or write.
   */
  private void indexCommitted(List<IndexOp> ops, long seq) {
    if (indexStale.get() || indexDamaged.get()) {
      try {
        synchronizeIndex();
      } catch (RuntimeException e) {
        indexStale.set(true);
        LOG.error(
            "the search index could not be repaired after committing seq {}; the record holds the change, and "
                + "the repair is tried again before the next search or write",
            seq,
            e);
      }
      return;
    }
    try {
      index.apply(ops, seq, store.generation());
      indexDirty.set(true);
    } catch (RuntimeException e) {
      indexStale.set(true);
      LOG.error(
          "the search index failed to apply committed changes up to seq {}; it will be repaired",
          seq,
          e);
    }
  }

  /**
   * Brings the index up to date at open. An index that fails is recreated and rebuilt (see {@link
   * #synchronizeIndex}); if even that fails, the engine opens all the same, with the index marked
   * for repair: reads of the record (get, list, history) never depend on the index, and searches
   * and writes try the repair again. A failure of the record is thrown.
   */
  private void openIndex() {
    try {
      synchronizeIndex();
    } catch (RuntimeException e) {
      if (!IndexFailure.in(e)) {
        throw e;
      }
      indexStale.set(true);
      LOG.error(
          "the search index cannot be rebuilt now; the record is readable, and searches and writes try the "
              + "repair again",
          e);
    }
  }

  /**
   * Brings the index up to date with the record (catching up or rebuilding, see {@link IndexSync});
   * if the index was found damaged, or fails while doing so, it is recreated ({@link
   * dev.engram.spi.SearchIndex#recreate}: the Lucene index sets its directory aside) and rebuilt
   * from the record's stored vectors. Called at open and under the write lock.
   *
   * @throws StorageException the record's failure, or the recreated index's
   */
  private void synchronizeIndex() {
    if (indexDamaged.get()) {
      recreateIndex(null);
    }
    try {
      IndexSync.synchronize(store, index);
    } catch (RuntimeException e) {
      if (!IndexFailure.in(e)) {
        throw e;
      }
      LOG.warn(
          "the search index could not be brought up to date ({}); it is recreated and rebuilt from the record",
          e.getMessage());
      recreateIndex(e);
      IndexSync.synchronize(store, index);
    }
    hubDensities
        .clear(); // the index may hold changes this engine did not see (a catch-up or a rebuild)
    indexStale.set(false);
  }

  /**
   * Recreates the index empty; {@code failure} (if any) is thrown instead when the index cannot be
   * recreated.
   */
  private void recreateIndex(RuntimeException failure) {
    try {
      index.recreate();
    } catch (UnsupportedOperationException e) {
      if (failure == null) {
        throw new StorageException("the search index failed and " + e.getMessage(), e);
      }
      failure.addSuppressed(e);
      throw failure;
    }
    indexEpoch.incrementAndGet();
    indexDamaged.set(false);
    indexDirty.set(false);
  }

  /**
   * The number of index recreations so far; a search reads it before it starts (see {@link
   * #searchFailed}).
   */
  long indexEpoch() {
    return indexEpoch.get();
  }

  /**
   * Reports that a search of the index failed with {@code e}; returns true if the search should
   * repair and retry, false if {@code e} is the caller's own error (bad filter or arguments) or the
   * memory is closed. An index that was recreated since the search began ({@code epoch}) is not
   * marked again.
   */
  boolean searchFailed(RuntimeException e, long epoch) {
    if (e instanceof ValidationException
        || e instanceof IllegalArgumentException
        || e instanceof DimensionMismatchException
        || closed.get()) {
      return false;
    }
    if (indexEpoch.get() == epoch && indexDamaged.compareAndSet(false, true)) {
      LOG.warn(
          "a search of the index failed; the index is recreated and rebuilt from the record", e);
    }
    return true;
  }

  /** Called before searches: repairs the index if a write, commit or search of it failed. */
  void ensureSearchable() {
    ensureOpen();
    if (indexStale.get() || indexDamaged.get()) {
      writeLock.lock();
      try {
        if (indexStale.get() || indexDamaged.get()) {
          synchronizeIndex();
        }
      } finally {
        writeLock.unlock();
      }
    }
  }

  private void commitIndexQuietly() {
    if (indexDirty.getAndSet(false)) {
      try {
        index.commit();
      } catch (RuntimeException e) {
        indexDamaged.set(true);
        LOG.warn(
            "periodic index commit failed; the index is recreated and rebuilt from the record before the next "
                + "search or write",
            e);
      }
    }
  }

  void ensureOpen() {
    if (closed.get()) {
      throw new IllegalStateException("this Memory is closed");
    }
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    // shutdown, not shutdownNow: interrupting a running Lucene commit closes its NIO channels and
    // invalidates the
    // index lock, which makes the final commit and the close fail.
    shutdownThreads();
    Storage storage = config.storage();
    writeLock.lock();
    // The storage closes after the final commit, whatever it threw; a failure to close it never
    // hides that throw.
    try (storage) {
      commitIndexOnClose();
    } catch (IOException e) {
      throw new StorageException("could not close the storage", e);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * The final index commit; a damaged index is replaced by an empty one, rebuilt from the record at
   * the next open.
   */
  private void commitIndexOnClose() {
    try {
      if (indexDamaged.get()) {
        recreateIndex(null);
      }
      index.commit();
    } catch (RuntimeException e) {
      // Closing a damaged index would fail again; an empty index in its place is rebuilt at the
      // next open.
      LOG.warn(
          "final index commit failed; the index is recreated and rebuilt from the record at the next open",
          e);
      try {
        recreateIndex(null);
      } catch (RuntimeException recreate) {
        LOG.warn("recreating the index failed too; the next open sets it aside", recreate);
      }
    }
  }

  /** Stops the background threads, letting running tasks finish (up to 30 s each). */
  private void shutdownThreads() {
    for (ExecutorService pool : List.of(committer, asyncExecutor, keywordThreads, summaries)) {
      pool.shutdown();
      try {
        if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
          pool.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** The record's and the index's positions. */
  MemoryStatus status() {
    long indexed;
    try {
      indexed = index.state().seq();
    } catch (RuntimeException e) {
      return new MemoryStatus(store.lastSeq(), 0, true);
    }
    return new MemoryStatus(store.lastSeq(), indexed, indexStale.get() || indexDamaged.get());
  }
}

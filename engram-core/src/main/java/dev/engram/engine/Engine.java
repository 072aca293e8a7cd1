package dev.engram.engine;

import dev.engram.DimensionMismatchException;
import dev.engram.Engram;
import dev.engram.MemoryStatus;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.ConversationSummarizer;
import dev.engram.spi.UsageMeter;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.GraphOutbox;
import dev.engram.spi.GraphStore;
import dev.engram.spi.IndexOp;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.io.IOException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state shared by every tenant view: storage, models, locks and threads. Owns the one write path into the
 * record and the index: {@link #commit} applies a change set to the store, then the same changes to the index,
 * under one lock, so the index sees changes in sequence order.
 *
 * <p><b>Separate graph store.</b> When the graph lives outside the record ({@link
 * dev.engram.spi.Storage#graphCommitsWithRecords()} false) and the record has a {@link GraphOutbox}, a change set's
 * graph changes are committed into the outbox with its memory changes, and then applied to the graph store from the
 * outbox, oldest entry first; an entry leaves the outbox only after the graph store applied it. Entries left by a
 * crash or by a failed graph write are applied when the engine opens, and else before the next read of the graph
 * (through {@link #graph}) or the graph changes of the next commit, so no newer graph change overtakes them.
 * Without an outbox the graph changes are applied to the graph store after the memory commit, and a crash between the
 * two commits loses them.
 */
final class Engine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  final Engram.Config config;
  final MemoryStore store;
  final SearchIndex index;
  /**
   * The graph store, or null without one; with an outbox, a view of it that first applies pending outbox entries
   * (see {@link CatchingUpGraphStore}).
   */
  final GraphStore graph;
  /** The graph store itself, or null without one. */
  private final GraphStore graphStore;
  /** True if the record applies a change set's graph changes in its own transaction. */
  final boolean graphInRecords;
  /** The record's graph outbox, used for a separate graph store; null if the graph is in the record or has none. */
  private final GraphOutbox outbox;
  /** True while the outbox may hold entries the graph store has not applied; written under {@link #writeLock}. */
  private volatile boolean outboxPending;
  final ScopeLocks scopeLocks = new ScopeLocks(64);
  final ExecutorService asyncExecutor;
  private final ScheduledExecutorService committer;
  private final ExecutorService summaries;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final AtomicBoolean indexDirty = new AtomicBoolean();
  private final AtomicBoolean indexStale = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  private Engine(Engram.Config config) {
    this.config = config;
    this.store = config.storage().records();
    this.index = config.storage().index();
    this.graphStore = config.storage().graph().orElse(null);
    this.graphInRecords = graphStore != null && config.storage().graphCommitsWithRecords();
    this.outbox = graphStore == null || graphInRecords ? null : store.graphOutbox().orElse(null);
    this.outboxPending = outbox != null;
    this.graph = outbox == null ? graphStore : new CatchingUpGraphStore(graphStore, this::catchUpGraph);
    this.asyncExecutor = Executors.newFixedThreadPool(config.asyncThreads(), daemon("engram-async"));
    this.committer = Executors.newSingleThreadScheduledExecutor(daemon("engram-index-commit"));
    this.summaries = Executors.newSingleThreadExecutor(daemon("engram-summary"));
  }

  /**
   * Refreshes a scope's rolling summary in the background (one refresh at a time, in submission order). A failure
   * is logged and keeps the previous summary: the add it follows has already committed.
   */
  void refreshSummaryAsync(String tenant, Scope scope, List<Message> newMessages) {
    ConversationSummarizer summarizer = config.summarizer();
    if (summarizer == null || newMessages.isEmpty() || closed.get()) {
      return;
    }
    summaries.execute(() -> {
      try {
        String previous = store.summary(tenant, scope).orElse("");
        store.saveSummary(tenant, scope, summarizer.summarize(previous, newMessages, new UsageMeter()));
      } catch (RuntimeException e) {
        LOG.warn("refreshing the conversation summary of {} failed; the previous summary is kept", scope, e);
      }
    });
  }

  /** Opens the engine; if that fails the storage is closed (it was handed over), so its lock is released. */
  static Engine open(Engram.Config config) {
    try {
      checkEmbedder(config);
      if (config.graphExtractor() != null && config.storage().graph().isEmpty()) {
        throw new IllegalArgumentException("graph memory is configured, but the storage "
            + config.storage().getClass().getSimpleName() + " has no graph store");
      }
      IndexSync.synchronize(config.storage().records(), config.storage().index());
    } catch (RuntimeException e) {
      try {
        config.storage().close();
      } catch (IOException | RuntimeException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
    Engine engine = new Engine(config);
    engine.drainOutboxOnOpen();
    long ms = config.indexCommitInterval().toMillis();
    engine.committer.scheduleWithFixedDelay(engine::commitIndexQuietly, ms, ms, TimeUnit.MILLISECONDS);
    return engine;
  }

  private static void checkEmbedder(Engram.Config config) {
    MemoryStore store = config.storage().records();
    EmbeddingSpec wanted = new EmbeddingSpec(config.embedder().modelId(), config.embedder().dimension());
    var recorded = store.embeddingSpec();
    if (recorded.isEmpty()) {
      store.recordEmbeddingSpec(wanted);
    } else if (recorded.get().dimension() != wanted.dimension()) {
      throw new DimensionMismatchException("the data directory holds " + recorded.get().dimension()
          + "-dimensional embeddings from model '" + recorded.get().modelId() + "', but the configured embedder '"
          + wanted.modelId() + "' makes " + wanted.dimension() + "-dimensional ones; configure '"
          + recorded.get().modelId() + "' or use another data directory");
    } else if (!recorded.get().modelId().equals(wanted.modelId())) {
      throw new DimensionMismatchException("the data directory was written with embedding model '"
          + recorded.get().modelId() + "', but the configured embedder is '" + wanted.modelId()
          + "'; their vectors are not comparable: configure '" + recorded.get().modelId()
          + "' or use another data directory");
    }
  }

  LocalDate today() {
    return LocalDate.ofInstant(config.clock().instant(), ZoneOffset.UTC);
  }

  /** True if adds write the graph memory. */
  boolean graphEnabled() {
    return graph != null && config.graphExtractor() != null;
  }

  /**
   * Commits a change set to the store and then to the index; returns the store's sequence number. Graph changes go
   * into the store's transaction if it applies them; for a separate graph store they go into the store's outbox in
   * the same transaction and are then applied from there (after any older pending entry), or, without an outbox,
   * they are applied to the graph store right after the memory commit.
   *
   * <p>If the graph store fails, the memory changes stay committed (and indexed), the graph changes stay in the
   * outbox for the next graph read, commit or open to apply, and the graph store's exception is thrown.
   */
  long commit(ChangeSet changes) {
    ensureOpen();
    writeLock.lock();
    try {
      repairIndexIfStale();
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
        seq = store.apply(graphInRecords || changes.graph().isEmpty() ? changes : changes.withoutGraph());
        if (separateGraph) {
          graphStore.apply(changes.tenant(), changes.graph());
        }
      }
      List<IndexOp> ops = new ArrayList<>(changes.changes().size());
      for (MemoryChange c : changes.changes()) {
        ops.add(switch (c.event()) {
          case ADD, UPDATE -> new IndexOp.Upsert(c.memory());
          case DELETE -> new IndexOp.Remove(c.memory().tenant(), c.memory().id());
          case NOOP -> throw new IllegalStateException("NOOP in a change set");
        });
      }
      applyToIndex(ops, seq);
      if (graphFailure != null) {
        throw graphFailure;
      }
      return seq;
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Applies the outbox's pending entries to the graph store, oldest first, removing each after it applied; stops at
   * the first failure (that entry and the newer ones stay pending) and throws it. Called under the write lock.
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

  /** Applies the outbox's pending entries to the graph store, if there may be any; throws the graph's failure. */
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
   * Applies graph changes a previous run committed to the outbox but not to the graph store (a crash or a graph
   * failure between the two commits). A failure is logged: the entries stay pending for the next commit.
   */
  private void drainOutboxOnOpen() {
    if (outbox == null) {
      return;
    }
    writeLock.lock();
    try {
      drainOutbox();
    } catch (RuntimeException e) {
      LOG.error("the graph store failed to apply graph changes pending in the outbox; they stay pending and are "
          + "applied before the next graph change", e);
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
      applyToIndex(List.of(new IndexOp.RemoveTenant(tenant)), store.lastSeq());
    } finally {
      writeLock.unlock();
    }
  }

  private void applyToIndex(List<IndexOp> ops, long seq) {
    try {
      index.apply(ops, seq, store.generation());
      indexDirty.set(true);
    } catch (RuntimeException e) {
      // The record is committed and is the truth; the index is repaired from its change feed before the next
      // search or write.
      indexStale.set(true);
      LOG.error("the search index failed to apply committed changes up to seq {}; it will be repaired", seq, e);
    }
  }

  /** Called before searches: replays the store's change feed if an index write failed. */
  void ensureSearchable() {
    ensureOpen();
    if (indexStale.get()) {
      writeLock.lock();
      try {
        repairIndexIfStale();
      } finally {
        writeLock.unlock();
      }
    }
  }

  private void repairIndexIfStale() {
    if (indexStale.get()) {
      IndexSync.synchronize(store, index);
      indexStale.set(false);
    }
  }

  private void commitIndexQuietly() {
    if (indexDirty.getAndSet(false)) {
      try {
        index.commit();
      } catch (RuntimeException e) {
        indexDirty.set(true);
        LOG.warn("periodic index commit failed; it will be retried", e);
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
    // shutdown, not shutdownNow: interrupting a running Lucene commit closes its NIO channels and invalidates the
    // index lock, which makes the final commit and the close fail.
    for (ExecutorService pool : List.of(committer, asyncExecutor, summaries)) {
      pool.shutdown();
      try {
        if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
          pool.shutdownNow();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    writeLock.lock();
    try {
      index.commit();
    } catch (RuntimeException e) {
      LOG.warn("final index commit failed; the index will catch up from the record at next open", e);
    } finally {
      writeLock.unlock();
      try {
        config.storage().close();
      } catch (IOException e) {
        throw new StorageException("could not close the storage", e);
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
    return new MemoryStatus(store.lastSeq(), index.state().seq(), indexStale.get());
  }
}

package dev.engram.engine;

import dev.engram.DimensionMismatchException;
import dev.engram.Engram;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.ConversationSummarizer;
import dev.engram.spi.UsageMeter;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.EmbeddingSpec;
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
 */
final class Engine implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

  final Engram.Config config;
  final MemoryStore store;
  final SearchIndex index;
  /** The graph store, or null without one. */
  final GraphStore graph;
  /** True if the record applies a change set's graph changes in its own transaction. */
  final boolean graphInRecords;
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
    this.graph = config.storage().graph().orElse(null);
    this.graphInRecords = graph != null && config.storage().graphCommitsWithRecords();
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
   * into the store's transaction if it applies them, else to the graph store right after the memory commit.
   */
  long commit(ChangeSet changes) {
    ensureOpen();
    writeLock.lock();
    try {
      repairIndexIfStale();
      long seq = store.apply(graphInRecords || changes.graph().isEmpty() ? changes : changes.withoutGraph());
      if (!graphInRecords && graph != null && !changes.graph().isEmpty()) {
        graph.apply(changes.tenant(), changes.graph());
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
      return seq;
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
      if (graph != null) {
        graph.reset(tenant);
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
}

package dev.engram.engine;

import dev.engram.StorageException;
import dev.engram.spi.IndexOp;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a {@link SearchIndex} up to date with its {@link MemoryStore}: replays the change feed
 * when the index lags (a crash between the two commits), and rebuilds it when it belongs to another
 * generation, is ahead of the store, or holds a different number of documents (a deleted or damaged
 * index directory). A failure of the index itself is thrown as an {@link IndexFailure} (also when
 * the store's change feed wraps it), a failure of the store as it is, so that the engine can tell a
 * damaged index, which it recreates, from a failing record.
 */
final class IndexSync {
  private static final Logger LOG = LoggerFactory.getLogger(IndexSync.class);
  private static final int BATCH = 1000;

  private IndexSync() {}

  /** What {@link #synchronize} did. */
  enum Outcome {
    UP_TO_DATE,
    CAUGHT_UP,
    REBUILT
  }

  static Outcome synchronize(MemoryStore store, SearchIndex index) {
    if (!index.isDerived()) {
      return Outcome.UP_TO_DATE; // the index reads the record itself
    }
    try {
      long generation = store.generation();
      long last = store.lastSeq();
      SearchIndex.IndexState state = IndexFailure.call("report its state", index::state);
      Outcome outcome = Outcome.UP_TO_DATE;
      if (state.generation() != generation || state.seq() > last) {
        rebuild(store, index, generation, last);
        outcome = Outcome.REBUILT;
      } else if (state.seq() < last) {
        catchUp(store, index, state.seq(), generation);
        outcome = Outcome.CAUGHT_UP;
      }
      long documents = IndexFailure.call("report its state", index::state).documents();
      if (documents != store.count()) {
        LOG.warn(
            "index holds {} documents but the store {} memories; rebuilding the index",
            documents,
            store.count());
        rebuild(store, index, generation, last);
        outcome = Outcome.REBUILT;
      }
      IndexFailure.run("commit", index::commit);
      if (outcome != Outcome.UP_TO_DATE) {
        LOG.info(
            "search index {} (generation {}, seq {}, {} documents)",
            outcome.name().toLowerCase(Locale.ROOT),
            generation,
            last,
            IndexFailure.call("report its state", index::state).documents());
      }
      return outcome;
    } catch (RuntimeException e) {
      if (IndexFailure.in(e) && !(e instanceof IndexFailure)) {
        throw new IndexFailure("could not bring the index up to date: " + e.getMessage(), e);
      }
      throw e instanceof StorageException se
          ? se
          : new StorageException("could not bring the index up to date", e);
    }
  }

  static void catchUp(MemoryStore store, SearchIndex index, long fromSeq, long generation) {
    List<IndexOp> batch = new ArrayList<>(BATCH);
    long[] lastSeq = {fromSeq};
    store.changesSince(
        fromSeq,
        change -> {
          batch.add(
              change.current() == null
                  ? new IndexOp.Remove(change.tenant(), change.memoryId())
                  : new IndexOp.Upsert(change.current()));
          lastSeq[0] = Math.max(lastSeq[0], change.seq());
          if (batch.size() >= BATCH) {
            apply(index, batch, lastSeq[0], generation);
            batch.clear();
          }
        });
    apply(index, batch, Math.max(lastSeq[0], store.lastSeq()), generation);
  }

  private static void rebuild(MemoryStore store, SearchIndex index, long generation, long last) {
    IndexFailure.run("clear", () -> index.clear(generation));
    List<IndexOp> batch = new ArrayList<>(BATCH);
    store.forEach(
        m -> {
          batch.add(new IndexOp.Upsert(m));
          if (batch.size() >= BATCH) {
            apply(index, batch, 0, generation);
            batch.clear();
          }
        });
    apply(index, batch, last, generation);
  }

  private static void apply(SearchIndex index, List<IndexOp> batch, long seq, long generation) {
    List<IndexOp> ops = List.copyOf(batch);
    IndexFailure.run("apply changes", () -> index.apply(ops, seq, generation));
  }
}

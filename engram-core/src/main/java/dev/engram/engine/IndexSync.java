package dev.engram.engine;

import dev.engram.StorageException;
import dev.engram.spi.IndexOp;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a {@link SearchIndex} up to date with its {@link MemoryStore}: replays the change feed when the index lags
 * (a crash between the two commits), and rebuilds it when it belongs to another generation, is ahead of the store,
 * or holds a different number of documents (a deleted or damaged index directory).
 */
final class IndexSync {
  private static final Logger LOG = LoggerFactory.getLogger(IndexSync.class);
  private static final int BATCH = 1000;

  private IndexSync() {}

  /** What {@link #synchronize} did. */
  enum Outcome { UP_TO_DATE, CAUGHT_UP, REBUILT }

  static Outcome synchronize(MemoryStore store, SearchIndex index) {
    if (!index.isDerived()) {
      return Outcome.UP_TO_DATE; // the index reads the record itself
    }
    try {
      long generation = store.generation();
      long last = store.lastSeq();
      SearchIndex.IndexState state = index.state();
      Outcome outcome = Outcome.UP_TO_DATE;
      if (state.generation() != generation || state.seq() > last) {
        rebuild(store, index, generation, last);
        outcome = Outcome.REBUILT;
      } else if (state.seq() < last) {
        catchUp(store, index, state.seq(), generation);
        outcome = Outcome.CAUGHT_UP;
      }
      if (index.state().documents() != store.count()) {
        LOG.warn("index holds {} documents but the store {} memories; rebuilding the index",
            index.state().documents(), store.count());
        rebuild(store, index, generation, last);
        outcome = Outcome.REBUILT;
      }
      index.commit();
      if (outcome != Outcome.UP_TO_DATE) {
        LOG.info("search index {} (generation {}, seq {}, {} documents)", outcome.name().toLowerCase(),
            generation, last, index.state().documents());
      }
      return outcome;
    } catch (RuntimeException e) {
      throw e instanceof StorageException se ? se : new StorageException("could not bring the index up to date", e);
    }
  }

  static void catchUp(MemoryStore store, SearchIndex index, long fromSeq, long generation) {
    List<IndexOp> batch = new ArrayList<>(BATCH);
    long[] lastSeq = {fromSeq};
    store.changesSince(fromSeq, change -> {
      batch.add(change.current() == null
          ? new IndexOp.Remove(change.tenant(), change.memoryId())
          : new IndexOp.Upsert(change.current()));
      lastSeq[0] = Math.max(lastSeq[0], change.seq());
      if (batch.size() >= BATCH) {
        index.apply(List.copyOf(batch), lastSeq[0], generation);
        batch.clear();
      }
    });
    index.apply(List.copyOf(batch), Math.max(lastSeq[0], store.lastSeq()), generation);
  }

  private static void rebuild(MemoryStore store, SearchIndex index, long generation, long last) {
    index.clear(generation);
    List<IndexOp> batch = new ArrayList<>(BATCH);
    store.forEach(m -> {
      batch.add(new IndexOp.Upsert(m));
      if (batch.size() >= BATCH) {
        index.apply(List.copyOf(batch), 0, generation);
        batch.clear();
      }
    });
    index.apply(List.copyOf(batch), last, generation);
  }
}

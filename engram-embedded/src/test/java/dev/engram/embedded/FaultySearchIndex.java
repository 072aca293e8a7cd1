package dev.engram.embedded;

import dev.engram.StorageException;
import dev.engram.spi.GraphStore;
import dev.engram.spi.IndexField;
import dev.engram.spi.IndexOp;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The real Lucene index with scripted run-time faults: the next {@link #failNextSearches} dense
 * searches and the next {@link #failNextApplies} applies throw (a {@link StorageException} by
 * default) without touching the index, and each keyword read first runs {@link #onKeyword}'s
 * action. Everything else, {@link #recreate} included, goes to the index.
 */
final class FaultySearchIndex implements SearchIndex {
  private final SearchIndex index;
  private final AtomicInteger searchFailures = new AtomicInteger();
  private final AtomicInteger applyFailures = new AtomicInteger();
  private final AtomicInteger recreated = new AtomicInteger();
  private volatile Supplier<RuntimeException> fault =
      () -> new StorageException("injected index fault");
  private volatile Runnable onKeyword = () -> {};

  FaultySearchIndex(SearchIndex index) {
    this.index = index;
  }

  /** Wraps the index of {@code storage}. */
  static FaultySearchIndex around(EmbeddedStorage storage) {
    return new FaultySearchIndex(storage.index());
  }

  /** {@code storage} (whose index this wraps) with this index in place of its own. */
  Storage in(EmbeddedStorage storage) {
    return in(storage, storage.records());
  }

  /** {@code storage} with this index and {@code records} in place of its own. */
  Storage in(EmbeddedStorage storage, MemoryStore records) {
    FaultySearchIndex faulty = this;
    return new Storage() {
      @Override
      public MemoryStore records() {
        return records;
      }

      @Override
      public SearchIndex index() {
        return faulty;
      }

      @Override
      public Optional<GraphStore> graph() {
        return storage.graph();
      }

      @Override
      public boolean graphCommitsWithRecords() {
        return storage.graphCommitsWithRecords();
      }

      @Override
      public void close() throws IOException {
        storage.close();
      }
    };
  }

  /** Runs {@code action} on the reading thread before each keyword read. */
  FaultySearchIndex onKeyword(Runnable action) {
    this.onKeyword = action;
    return this;
  }

  FaultySearchIndex failNextSearches(int n) {
    searchFailures.set(n);
    return this;
  }

  FaultySearchIndex failNextApplies(int n) {
    applyFailures.set(n);
    return this;
  }

  /** The exception the faults throw. */
  FaultySearchIndex throwing(Supplier<RuntimeException> f) {
    this.fault = f;
    return this;
  }

  /** How many times the engine recreated the index. */
  int recreated() {
    return recreated.get();
  }

  private void maybeFail(AtomicInteger failures) {
    if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw fault.get();
    }
  }

  @Override
  public IndexState state() {
    return index.state();
  }

  @Override
  public void apply(List<IndexOp> ops, long seq, long generation) {
    maybeFail(applyFailures);
    index.apply(ops, seq, generation);
  }

  @Override
  public void clear(long generation) {
    index.clear(generation);
  }

  @Override
  public void commit() {
    index.commit();
  }

  @Override
  public void recreate() {
    recreated.incrementAndGet();
    index.recreate();
  }

  @Override
  public List<Candidate> dense(IndexQuery query, IndexField field, float[] vector, int k) {
    maybeFail(searchFailures);
    return index.dense(query, field, vector, k);
  }

  @Override
  public List<Candidate> keyword(IndexQuery query, IndexField field, String text, int k) {
    onKeyword.run();
    return index.keyword(query, field, text, k);
  }

  @Override
  public Set<IndexField> denseFields() {
    return index.denseFields();
  }

  @Override
  public void close() throws IOException {
    index.close();
  }
}

package dev.engram.testing;

import dev.engram.ChangePipelines;
import dev.engram.Hashes;
import dev.engram.MemoryItem;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.IndexOp;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.Storage;
import dev.engram.spi.StoredMemory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture of the SPI contracts ({@link MemoryStoreContract}, {@link SearchIndexContract},
 * {@link RandomFilterContract}): a {@link Storage} of the backend under test, opened fresh for
 * every test in a temporary directory, written the way the engine writes it ({@link #commit}: the
 * change set to the record, then its index operations to the index with the record's sequence
 * number). A backend adds one subclass per contract that implements {@link #openStorage}; opening
 * the same directory again must give the same data.
 */
public abstract class StorageContractSupport {
  /** The vector length of these tests. */
  protected static final int DIMENSION = 8;

  /** The time of the first memory {@link #item} makes. */
  protected static final Instant T0 = Instant.parse("2024-05-01T10:00:00.123456789Z");

  /** When the contracts' deletes happen, as the engine's clock would tell the store. */
  protected static final Instant DELETED_AT = Instant.parse("2024-06-01T12:00:00.987654321Z");

  @TempDir protected Path dir;

  protected Storage storage;
  protected MemoryStore store;
  protected SearchIndex index;
  private int made;

  /** Opens the backend's storage in {@code dir} for embeddings of {@code dimension} floats. */
  protected abstract Storage openStorage(Path dir, int dimension);

  /**
   * False for backends whose text columns cannot hold an unpaired UTF-16 surrogate (PostgreSQL's
   * UTF-8 text and JSON cannot); the random tests then generate none.
   */
  protected boolean keepsUnpairedSurrogates() {
    return true;
  }

  /**
   * False for backends that, like SQL, treat -0.0 as equal to 0.0 in metadata comparisons (where
   * {@link Double#compare} orders it below); the random tests then generate no -0.0.
   */
  protected boolean distinguishesNegativeZero() {
    return true;
  }

  @BeforeEach
  void openStorageForTest() {
    open();
  }

  @AfterEach
  void closeStorageAfterTest() throws IOException {
    if (storage != null) {
      storage.close();
      storage = null;
    }
  }

  private void open() {
    storage = openStorage(dir, DIMENSION);
    store = storage.records();
    index = storage.index();
  }

  /** Closes the storage and opens it again on the same directory. */
  protected void reopen() {
    try {
      storage.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    storage = null;
    open();
  }

  /**
   * Commits as the engine does: the record first, then the index with the record's sequence number.
   */
  protected long commit(ChangeSet set) {
    long seq = store.apply(set);
    List<IndexOp> ops = new ArrayList<>();
    for (MemoryChange c : set.changes()) {
      ops.add(
          c.event() == dev.engram.EventType.DELETE
              ? new IndexOp.Remove(c.memory().tenant(), c.memory().id())
              : new IndexOp.Upsert(c.memory()));
    }
    index.apply(ops, seq, store.generation());
    return seq;
  }

  /** Commits ADD changes of {@code memories} (all of one tenant) in one change set. */
  protected long add(StoredMemory... memories) {
    List<MemoryChange> changes = new ArrayList<>();
    for (StoredMemory m : memories) {
      changes.add(MemoryChange.add(m, m.item().actorId(), m.item().role(), ChangePipelines.RAW));
    }
    return commit(ChangeSet.of(memories[0].tenant(), changes));
  }

  /**
   * A memory of {@code scope} with this text, created one second after the previous one {@link
   * #item} made.
   */
  protected MemoryItem item(String id, Scope scope, String text) {
    Instant t = T0.plusSeconds(made++);
    return new MemoryItem(
        id,
        text,
        Hashes.md5(text),
        Map.of(),
        scope.userId().orElse(null),
        scope.agentId().orElse(null),
        scope.runId().orElse(null),
        null,
        null,
        t,
        t,
        null,
        List.of(),
        null);
  }

  /** {@code item} stored in {@code tenant} with a unit vector along {@code axis}. */
  protected static StoredMemory stored(String tenant, MemoryItem item, int axis) {
    return new StoredMemory(tenant, item, axis(axis));
  }

  /** The unit vector along {@code axis}. */
  protected static float[] axis(int axis) {
    float[] v = new float[DIMENSION];
    v[axis] = 1;
    return v;
  }

  /** A memory of tenant {@code tenant}, {@code scope}, text and axis. */
  protected StoredMemory memory(String tenant, String id, Scope scope, String text, int axis) {
    return stored(tenant, item(id, scope, text), axis);
  }

  /** A memory with a speaker and role. */
  protected StoredMemory spoken(
      String tenant, String id, Scope scope, String text, String actor, Role role) {
    MemoryItem i = item(id, scope, text);
    return new StoredMemory(
        tenant,
        new MemoryItem(
            i.id(),
            i.text(),
            i.hash(),
            i.metadata(),
            i.userId(),
            i.agentId(),
            i.runId(),
            actor,
            role,
            i.createdAt(),
            i.updatedAt(),
            null,
            List.of(),
            null),
        axis(0));
  }
}

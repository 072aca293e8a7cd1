package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangePipelines;
import dev.engram.MemoryNotFoundException;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A change set that fails part-way writes nothing: no memory, history or window row, no sequence
 * number.
 */
class AtomicityTest extends SqliteStoreTestCase {
  StoredMemory existing;

  @BeforeEach
  void addExisting() {
    existing = memory().id("existing").text("old text").stored();
    SqliteMemoryStoreTest.add(store, existing);
  }

  private ChangeSet failingAfter(MemoryChange bad, StoredMemory fresh) {
    StoredMemory updated =
        new StoredMemory(
            "t1",
            existing.item().withContent("new text", Map.of(), null, Memories.T0.plusSeconds(1)),
            existing.embedding());
    return new ChangeSet(
        "t1",
        List.of(
            MemoryChange.add(fresh, "Caroline", Role.USER, ChangePipelines.RAW),
            MemoryChange.update(updated, "old text", ChangePipelines.UPDATE),
            bad),
        List.of(
            new ChangeSet.WindowAppend(Scope.user("alice"), List.of(Message.user("hello")), 1)));
  }

  private void assertNothingWritten(StoredMemory fresh) {
    assertThat(store.count()).isEqualTo(1);
    assertThat(store.lastSeq()).isEqualTo(1);
    assertThat(store.get("t1", fresh.id())).isEmpty();
    assertThat(store.get("t1", "existing").orElseThrow().item()).isEqualTo(existing.item());
    assertThat(store.history("t1", fresh.id())).isEmpty();
    assertThat(store.history("t1", "existing")).hasSize(1);
    assertThat(store.recentMessages("t1", Scope.user("alice"), 10)).isEmpty();
    List<Long> seqs = new java.util.ArrayList<>();
    store.changesSince(0, c -> seqs.add(c.seq()));
    assertThat(seqs).containsExactly(1L);
  }

  private void assertStillWritable() {
    StoredMemory later = memory().id("later").stored();
    assertThat(SqliteMemoryStoreTest.add(store, later)).isEqualTo(2);
    assertThat(store.get("t1", "later")).isPresent();
  }

  @Test
  void aDuplicateAddMidwayWritesNothing() {
    StoredMemory fresh = memory().id("fresh").stored();
    StoredMemory duplicate = memory().id("existing").text("duplicate").stored();

    assertThatThrownBy(
            () ->
                store.apply(
                    failingAfter(
                        MemoryChange.add(duplicate, null, null, ChangePipelines.RAW), fresh)))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("ADD of memory existing")
        .hasMessageContaining("already exists in tenant 't1'")
        .hasMessageContaining("engram.db");
    assertNothingWritten(fresh);
    assertStillWritable();
  }

  @Test
  void theSameIdAddedTwiceInOneSetWritesNothing() {
    StoredMemory fresh = memory().id("fresh").stored();
    assertThatThrownBy(
            () ->
                store.apply(
                    failingAfter(MemoryChange.add(fresh, null, null, ChangePipelines.RAW), fresh)))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("ADD of memory fresh");
    assertNothingWritten(fresh);
    assertStillWritable();
  }

  @Test
  void anUpdateOfAMissingMemoryWritesNothing() {
    StoredMemory fresh = memory().id("fresh").stored();
    StoredMemory ghost = memory().id("ghost").stored();
    assertThatThrownBy(
            () ->
                store.apply(
                    failingAfter(MemoryChange.update(ghost, "x", ChangePipelines.UPDATE), fresh)))
        .isInstanceOf(MemoryNotFoundException.class)
        .hasMessageContaining("ghost");
    assertNothingWritten(fresh);
    assertStillWritable();
  }

  @Test
  void aDeleteOfAnotherTenantsMemoryWritesNothing() {
    StoredMemory fresh = memory().id("fresh").stored();
    SqliteMemoryStoreTest.add(store, memory().tenant("t2").id("theirs").stored());
    StoredMemory theirsAsMine = memory().id("theirs").stored();
    assertThatThrownBy(
            () ->
                store.apply(
                    failingAfter(
                        MemoryChange.delete(
                            theirsAsMine, ChangePipelines.DELETE, SqliteMemoryStoreTest.DELETED_AT),
                        fresh)))
        .isInstanceOf(MemoryNotFoundException.class)
        .hasMessageContaining("theirs");
    assertThat(store.get("t2", "theirs")).isPresent();
    assertThat(store.count()).isEqualTo(2);
    assertThat(store.get("t1", "fresh")).isEmpty();
    assertThat(store.history("t1", "fresh")).isEmpty();
    assertThat(store.recentMessages("t1", Scope.user("alice"), 10)).isEmpty();
    assertThat(store.lastSeq()).isEqualTo(2);
  }
}

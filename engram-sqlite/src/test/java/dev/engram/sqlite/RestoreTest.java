package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.RestoredMemory;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code restore} writes history rows as given and memory rows in one transaction; {@code
 * memoryIds} pages.
 */
class RestoreTest extends SqliteStoreTestCase {
  private static List<HistoryEntry> history(String id, String text) {
    return List.of(
        new HistoryEntry(
            0,
            id,
            EventType.ADD,
            null,
            "first " + text,
            "Alice",
            Role.USER,
            Memories.T0,
            ChangePipelines.RAW),
        new HistoryEntry(
            0,
            id,
            EventType.UPDATE,
            "first " + text,
            text,
            null,
            null,
            Memories.T0.plusSeconds(60),
            ChangePipelines.UPDATE));
  }

  @Test
  void historyRowsAreWrittenAsGivenWithNewSequenceNumbers() {
    SqliteMemoryStoreTest.add(store, memory().id("before").stored());
    StoredMemory live =
        memory().id("b-live").text("likes tea").scope("alice", "helper", null).stored();
    List<HistoryEntry> gone =
        List.of(
            new HistoryEntry(
                0,
                "a-gone",
                EventType.ADD,
                null,
                "x",
                null,
                null,
                Memories.T0,
                ChangePipelines.RAW),
            new HistoryEntry(
                0,
                "a-gone",
                EventType.DELETE,
                "x",
                null,
                null,
                null,
                Memories.T0,
                ChangePipelines.DELETE));

    long seq =
        store.restore(
            "t1",
            List.of(
                new RestoredMemory("a-gone", Optional.empty(), gone),
                new RestoredMemory("b-live", Optional.of(live), history("b-live", "likes tea"))));

    assertThat(seq).isEqualTo(5);
    assertThat(store.lastSeq()).isEqualTo(5);
    assertThat(store.get("t1", "b-live").orElseThrow().item()).isEqualTo(live.item());
    assertThat(store.get("t1", "a-gone")).isEmpty();
    assertThat(store.history("t1", "a-gone")).extracting(HistoryEntry::seq).containsExactly(2L, 3L);
    assertThat(store.history("t1", "b-live"))
        .containsExactly(
            new HistoryEntry(
                4,
                "b-live",
                EventType.ADD,
                null,
                "first likes tea",
                "Alice",
                Role.USER,
                Memories.T0,
                ChangePipelines.RAW),
            new HistoryEntry(
                5,
                "b-live",
                EventType.UPDATE,
                "first likes tea",
                "likes tea",
                null,
                null,
                Memories.T0.plusSeconds(60),
                ChangePipelines.UPDATE));
    List<MemoryStore.Change> feed = new ArrayList<>();
    store.changesSince(1, feed::add);
    assertThat(feed).extracting(MemoryStore.Change::memoryId).containsExactly("a-gone", "b-live");
    assertThat(feed.get(0).current()).isNull();
    assertThat(feed.get(1).seq()).isEqualTo(5);
  }

  @Test
  void anExistingMemoryIdFailsTheWholeRestore() {
    SqliteMemoryStoreTest.add(store, memory().id("taken").stored());
    StoredMemory fresh = memory().id("fresh").stored();
    StoredMemory taken = memory().id("taken").text("other").stored();

    assertThatThrownBy(
            () ->
                store.restore(
                    "t1",
                    List.of(
                        new RestoredMemory(
                            "fresh", Optional.of(fresh), history("fresh", "likes tea")),
                        new RestoredMemory(
                            "taken", Optional.of(taken), history("taken", "other")))))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("already exists");

    assertThat(store.get("t1", "fresh")).isEmpty();
    assertThat(store.history("t1", "fresh")).isEmpty();
    assertThat(store.history("t1", "taken")).hasSize(1);
    assertThat(store.lastSeq()).isEqualTo(1);
  }

  @Test
  void memoryIdsPageInIdOrderByScopeOrByHistory() {
    for (String id : List.of("c", "a", "e", "b", "d")) {
      SqliteMemoryStoreTest.add(
          store, memory().id(id).scope(id.equals("e") ? "bob" : "alice", null, null).stored());
    }
    SqliteMemoryStoreTest.add(store, memory().tenant("t2").id("a0").stored());
    store.restore(
        "t1",
        List.of(
            new RestoredMemory(
                "f-gone",
                Optional.empty(),
                List.of(
                    new HistoryEntry(
                        0,
                        "f-gone",
                        EventType.ADD,
                        null,
                        "x",
                        null,
                        null,
                        Memories.T0,
                        ChangePipelines.RAW)))));

    assertThat(store.memoryIds("t1", Optional.empty(), "", 4)).containsExactly("a", "b", "c", "d");
    assertThat(store.memoryIds("t1", Optional.empty(), "d", 4)).containsExactly("e", "f-gone");
    assertThat(store.memoryIds("t1", Optional.of(Scope.user("alice")), "", 10))
        .containsExactly("a", "b", "c", "d");
    assertThat(store.memoryIds("t1", Optional.of(Scope.user("alice")), "b", 2))
        .containsExactly("c", "d");
    assertThat(store.memoryIds("t2", Optional.empty(), "", 10)).containsExactly("a0");
  }
}

package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangePipelines;
import dev.engram.MemoryNotFoundException;
import dev.engram.Scope;
import dev.engram.graph.Entity;
import dev.engram.graph.GraphChanges;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An add's graph changes commit in the same SQLite transaction as its memory changes: both or
 * neither.
 */
class GraphTransactionTest extends SqliteStoreTestCase {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant T = Instant.parse("2024-01-01T00:00:00Z");

  private static GraphChanges graph() {
    Entity a = new Entity("e1", "Alice", "alice", "person", new float[] {1, 0}, 1, T, T, ALICE);
    Entity b = new Entity("e2", "Beijing", "beijing", "city", new float[] {0, 1}, 1, T, T, ALICE);
    Relation r =
        new Relation(
            "r1",
            "e1",
            "lives_in",
            "e2",
            "Alice lives in Beijing",
            new float[] {1, 1},
            T,
            null,
            T,
            null,
            List.of("msg-1"),
            List.of("m1"),
            ALICE);
    return GraphChanges.upserts(List.of(a, b), List.of(r));
  }

  @Test
  void memoryAndGraphChangesCommitTogether() {
    StoredMemory m = memory().id("m1").text("Alice lives in Beijing").stored();
    store.apply(
        new ChangeSet(
            "t1",
            List.of(MemoryChange.add(m, null, null, ChangePipelines.RAW)),
            List.of(),
            graph()));
    assertThat(store.get("t1", "m1")).isPresent();
    assertThat(store.graph().relationsOf("t1", ALICE, List.of("e1"), TimeView.ALL))
        .extracting(Relation::id)
        .containsExactly("r1");
  }

  @Test
  void aFailingMemoryChangeWritesNoGraphRow() {
    StoredMemory fresh = memory().id("m1").text("Alice lives in Beijing").stored();
    StoredMemory missing = memory().id("missing").text("gone").stored();
    assertThatThrownBy(
            () ->
                store.apply(
                    new ChangeSet(
                        "t1",
                        List.of(
                            MemoryChange.add(fresh, null, null, ChangePipelines.RAW),
                            MemoryChange.delete(missing, ChangePipelines.DELETE, T)),
                        List.of(),
                        graph())))
        .isInstanceOf(MemoryNotFoundException.class);
    assertThat(store.get("t1", "m1")).isEmpty();
    assertThat(store.graph().entities("t1", List.of("e1", "e2"))).isEmpty();
    assertThat(store.graph().relationsOf("t1", ALICE, List.of("e1"), TimeView.ALL)).isEmpty();
  }

  @Test
  void aGraphOnlyChangeSetIsNotEmptyAndResetClearsTheGraph() {
    ChangeSet graphOnly = new ChangeSet("t1", List.of(), List.of(), graph());
    assertThat(graphOnly.isEmpty()).isFalse();
    store.apply(graphOnly);
    assertThat(store.graph().entities("t1", List.of("e1", "e2"))).hasSize(2);
    store.reset("t1");
    assertThat(store.graph().entities("t1", List.of("e1", "e2"))).isEmpty();
  }
}

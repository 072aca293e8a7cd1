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
import dev.engram.spi.GraphOutbox;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph outbox: a change set sent to the outbox commits its graph changes as one {@code
 * graph_outbox} row in the same transaction as its memory changes (both or neither), not into the
 * graph tables; entries come back oldest first, exactly, until marked done; reset drops the
 * tenant's entries; an older file gets the table on open.
 */
class SqliteGraphOutboxTest {
  private static final Scope ALICE = Scope.user("alice");
  private static final Instant T = Instant.parse("2024-01-01T00:00:00.000000123Z");

  @TempDir Path dir;

  private static GraphChanges graph(String suffix) {
    Entity a =
        new Entity(
            "e1", "Alice", "alice", "person", new float[] {1, 0}, 1, T, T, ALICE, List.of("ally"));
    Entity b =
        new Entity(
            "e" + suffix,
            "City " + suffix,
            "city " + suffix,
            "city",
            new float[] {0, 1},
            1,
            T,
            T,
            ALICE);
    Relation r =
        new Relation(
            "r" + suffix,
            "e1",
            "lives_in",
            b.id(),
            "Alice lives in " + b.name(),
            new float[] {0.6f, 0.8f},
            T,
            null,
            T,
            null,
            List.of("msg-" + suffix),
            List.of("m" + suffix),
            ALICE);
    return new GraphChanges(List.of(a, b), List.of(r), Set.of("r-old"), Set.of());
  }

  private static ChangeSet add(String tenant, String id, GraphChanges graph) {
    StoredMemory m = memory().tenant(tenant).id(id).text("memory " + id).stored();
    return new ChangeSet(
            tenant, List.of(MemoryChange.add(m, null, null, ChangePipelines.RAW)), List.of(), graph)
        .withGraphToOutbox();
  }

  @Test
  void graphChangesGoToTheOutboxInTheMemoryTransactionAndLeaveWhenDone() {
    try (SqliteMemoryStore store = SqliteMemoryStoreTest.open(dir)) {
      GraphOutbox outbox = store.graphOutbox().orElseThrow();
      assertThat(outbox.pending()).isEmpty();
      store.apply(add("t1", "m1", graph("1")));
      store.apply(add("t2", "m2", graph("2")));
      assertThat(store.get("t1", "m1")).isPresent();
      assertThat(store.graph().entities("t1", List.of("e1"))).isEmpty();
      assertThat(store.graph().relationsOf("t1", ALICE, List.of("e1"), TimeView.ALL)).isEmpty();

      List<GraphOutbox.Pending> pending = outbox.pending();
      assertThat(pending).extracting(GraphOutbox.Pending::tenant).containsExactly("t1", "t2");
      assertThat(pending)
          .extracting(GraphOutbox.Pending::changes)
          .containsExactly(graph("1"), graph("2"));
      assertThat(pending.get(0).seq()).isLessThan(pending.get(1).seq());

      outbox.done(pending.get(0).seq());
      assertThat(outbox.pending()).containsExactly(pending.get(1));
      outbox.done(pending.get(0).seq());
      outbox.done(pending.get(1).seq());
      assertThat(outbox.pending()).isEmpty();
      // Sequence numbers are not reused after the table emptied.
      store.apply(add("t1", "m3", graph("3")));
      assertThat(outbox.pending().get(0).seq()).isGreaterThan(pending.get(1).seq());
    }
  }

  @Test
  void aFailingMemoryChangeWritesNoOutboxEntryAndEmptyGraphChangesWriteNone() {
    try (SqliteMemoryStore store = SqliteMemoryStoreTest.open(dir)) {
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
                              graph("1"))
                          .withGraphToOutbox()))
          .isInstanceOf(MemoryNotFoundException.class);
      assertThat(store.get("t1", "m1")).isEmpty();
      assertThat(store.graphOutbox().orElseThrow().pending()).isEmpty();
      store.apply(add("t1", "m1", GraphChanges.NONE));
      assertThat(store.get("t1", "m1")).isPresent();
      assertThat(store.graphOutbox().orElseThrow().pending()).isEmpty();
    }
  }

  @Test
  void aGraphOnlyChangeSetIsOneEntryAndResetDropsTheTenantsEntries() {
    try (SqliteMemoryStore store = SqliteMemoryStoreTest.open(dir)) {
      long before = store.lastSeq();
      assertThat(
              store.apply(
                  new ChangeSet("t1", List.of(), List.of(), graph("1")).withGraphToOutbox()))
          .isEqualTo(before);
      store.apply(add("t2", "m2", graph("2")));
      store.apply(add("t1", "m3", graph("3")));
      assertThat(store.graphOutbox().orElseThrow().pending())
          .extracting(GraphOutbox.Pending::tenant)
          .containsExactly("t1", "t2", "t1");
      store.reset("t1");
      assertThat(store.graphOutbox().orElseThrow().pending())
          .extracting(GraphOutbox.Pending::changes)
          .containsExactly(graph("2"));
    }
  }

  @Test
  void anOlderFileGetsTheOutboxOnOpen() throws Exception {
    Path db = dir.resolve("sub/engram.db");
    try (SqliteMemoryStore store = SqliteMemoryStoreTest.open(dir)) {
      store.apply(
          new ChangeSet(
              "t1",
              List.of(
                  MemoryChange.add(
                      memory().id("m1").text("x").stored(), null, null, ChangePipelines.RAW)),
              List.of(),
              graph("1")));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement()) {
      s.execute("DROP TABLE graph_outbox");
    }
    try (SqliteMemoryStore store = SqliteMemoryStoreTest.open(dir)) {
      assertThat(store.graphOutbox().orElseThrow().pending()).isEmpty();
      store.apply(add("t1", "m2", graph("2")));
      assertThat(store.graphOutbox().orElseThrow().pending())
          .extracting(GraphOutbox.Pending::changes)
          .containsExactly(graph("2"));
      assertThat(store.get("t1", "m1")).isPresent();
      assertThat(store.graph().relationsOf("t1", ALICE, List.of("e1"), TimeView.ALL))
          .extracting(Relation::id)
          .containsExactly("r1");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM graph_outbox")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(1);
    }
  }
}

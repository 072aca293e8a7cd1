package dev.engram.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.Entity;
import dev.engram.graph.Relation;
import dev.engram.graph.TimeView;
import dev.engram.spi.GraphOutbox;
import dev.engram.spi.GraphStore;
import dev.engram.spi.StorageWithGraph;
import dev.engram.sqlite.Durability;
import dev.engram.sqlite.SqliteMemoryStore;
import dev.engram.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph outbox with a separate graph store (a second, real SQLite database): an add's graph
 * changes are committed with its memories into the record's outbox and applied from there, so a
 * graph store failure (scripted faults) or a {@code kill -9} between the two commits delays the
 * graph part of the add instead of losing it; the next graph read, commit or open applies it, in
 * order, and the graph ends up as a run without faults leaves it.
 */
class GraphOutboxTest {
  static final String TENANT = "default";
  static final Scope ALICE = Scope.user("alice");
  static final Instant AT = Instant.parse("2023-01-10T09:00:00Z");
  static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-02-02T12:00:00.123456789Z"), ZoneOffset.UTC);
  private static final List<String> TEXTS =
      List.of(
          "I work at Acme with Bob.", "Bob and I went to Paris.", "I moved to Lisbon with Carol.");

  @TempDir Path dir;
  @TempDir Path graphDir;
  @TempDir Path tmp;

  private static Memory open(Path dataDir, GraphStore graph) {
    return Engram.builder()
        .storage(StorageWithGraph.of(EmbeddedStorage.open(dataDir, 64), graph))
        .embedder(new HashEmbedder())
        .graph(OfflineGraphExtractor.create())
        .clock(CLOCK)
        .build();
  }

  private static void remember(Memory memory, String text) {
    memory.add(
        AddRequest.builder(ALICE)
            .message(new Message(Role.USER, text, "Alice", AT, null))
            .infer(false)
            .build());
  }

  private static List<MemoryItem> memories(Memory memory) {
    return memory.list(ListRequest.of(ALICE).withPage(0, 100)).items();
  }

  private static List<GraphOutbox.Pending> pending(Path dataDir) {
    try (SqliteMemoryStore records =
        SqliteMemoryStore.open(dataDir.resolve(EmbeddedStorage.DATABASE_FILE), Durability.NORMAL)) {
      return records.graphOutbox().orElseThrow().pending();
    }
  }

  /**
   * The graph as it depends on content only (ids are random): every relation of these memories with
   * its endpoints' names, times and supporting memory texts, and every endpoint entity with its
   * counts, times and aliases.
   */
  private static Set<String> graphOf(GraphStore graph, List<MemoryItem> memories) {
    Map<String, String> textOf = new HashMap<>();
    memories.forEach(m -> textOf.put(m.id(), m.text()));
    List<Relation> relations = graph.relationsFromMemories(TENANT, textOf.keySet());
    Set<String> endpoints = new HashSet<>();
    relations.forEach(
        r -> {
          endpoints.add(r.sourceId());
          endpoints.add(r.targetId());
        });
    Map<String, Entity> entities =
        graph.entities(TENANT, endpoints).stream().collect(Collectors.toMap(Entity::id, e -> e));
    Set<String> out = new TreeSet<>();
    for (Relation r : relations) {
      out.add(
          "relation "
              + entities.get(r.sourceId()).name()
              + " -"
              + r.name()
              + "-> "
              + entities.get(r.targetId()).name()
              + " | "
              + r.fact()
              + " | "
              + r.validAt()
              + " "
              + r.invalidAt()
              + " "
              + r.createdAt()
              + " "
              + r.expiredAt()
              + " | "
              + r.memoryIds().stream().map(textOf::get).sorted().toList()
              + " | "
              + r.sourceMessageIds().size()
              + " messages | "
              + r.scope().key());
    }
    for (Entity e : entities.values()) {
      out.add(
          "entity "
              + e.name()
              + " "
              + e.type()
              + " x"
              + e.mentions()
              + " "
              + e.createdAt()
              + " "
              + e.updatedAt()
              + " "
              + e.aliases()
              + " "
              + e.scope().key());
    }
    return out;
  }

  /** The graph a run without faults leaves after adding these texts. */
  private Set<String> faultlessGraph(List<String> texts) {
    Path refDir = tmp.resolve("reference");
    try (SqliteMemoryStore graphDb =
            SqliteMemoryStore.open(tmp.resolve("reference-graph.db"), Durability.NORMAL);
        Memory memory = open(refDir, graphDb.graph())) {
      texts.forEach(t -> remember(memory, t));
      assertThat(pending(refDir)).isEmpty();
      return graphOf(graphDb.graph(), memories(memory));
    }
  }

  @Test
  void aScriptedGraphFaultKeepsTheMemoriesAndTheNextAddAppliesBothInOrder() {
    Set<String> expected = faultlessGraph(TEXTS.subList(0, 2));
    // The second add builds on the first one's graph: Alice and Bob mentioned twice, their relation
    // from both.
    assertThat(expected)
        .contains(
            "entity Alice person x2 2024-02-02T12:00:00.123456789Z"
                + " 2024-02-02T12:00:00.123456789Z [] user_id=alice",
            "relation Alice -related_to-> Bob | "
                + TEXTS.get(0)
                + " | 2023-01-10T09:00:00Z null 2024-02-02T12:00:00.123456789Z null | ["
                + TEXTS.get(1)
                + ", "
                + TEXTS.get(0)
                + "] | 0 messages | user_id=alice")
        .hasSize(9);
    try (SqliteMemoryStore graphDb =
        SqliteMemoryStore.open(graphDir.resolve("graph.db"), Durability.NORMAL)) {
      FaultyGraphStore graph = new FaultyGraphStore(graphDb.graph()).failNextApplies(1);
      try (Memory memory = open(dir, graph)) {
        assertThatThrownBy(() -> remember(memory, TEXTS.get(0)))
            .isInstanceOf(StorageException.class)
            .hasMessageContaining("scripted graph store outage");
        // The memory is committed and searchable; its graph part waits in the outbox.
        assertThat(memories(memory)).extracting(MemoryItem::text).containsExactly(TEXTS.get(0));
        assertThat(graphOf(graphDb.graph(), memories(memory))).isEmpty();
        List<GraphOutbox.Pending> waiting = pending(dir);
        assertThat(waiting).hasSize(1);
        assertThat(waiting.get(0).tenant()).isEqualTo(TENANT);
        assertThat(waiting.get(0).changes().relations())
            .extracting(Relation::fact)
            .containsOnly(TEXTS.get(0));

        remember(memory, TEXTS.get(1));
        assertThat(graph.applied()).isEqualTo(2);
        assertThat(pending(dir)).isEmpty();
        assertThat(graphOf(graphDb.graph(), memories(memory))).isEqualTo(expected);
      }
    }
  }

  @Test
  void pendingGraphChangesAreAppliedWhenTheEngineOpens() {
    Set<String> expected = faultlessGraph(TEXTS.subList(0, 1));
    try (SqliteMemoryStore graphDb =
        SqliteMemoryStore.open(graphDir.resolve("graph.db"), Durability.NORMAL)) {
      try (Memory memory = open(dir, new FaultyGraphStore(graphDb.graph()).failNextApplies(1))) {
        assertThatThrownBy(() -> remember(memory, TEXTS.get(0)))
            .isInstanceOf(StorageException.class);
      }
      assertThat(pending(dir)).hasSize(1);
      FaultyGraphStore healthy = new FaultyGraphStore(graphDb.graph());
      try (Memory memory = open(dir, healthy)) {
        assertThat(healthy.applied()).isEqualTo(1);
        assertThat(graphOf(graphDb.graph(), memories(memory))).isEqualTo(expected);
      }
      assertThat(pending(dir)).isEmpty();
    }
  }

  @Test
  void aGraphStillFailingAtOpenIsCaughtUpByTheFirstGraphRead() {
    Set<String> expected = faultlessGraph(TEXTS.subList(0, 1));
    try (SqliteMemoryStore graphDb =
        SqliteMemoryStore.open(graphDir.resolve("graph.db"), Durability.NORMAL)) {
      try (Memory memory = open(dir, new FaultyGraphStore(graphDb.graph()).failNextApplies(1))) {
        assertThatThrownBy(() -> remember(memory, TEXTS.get(0)))
            .isInstanceOf(StorageException.class);
      }
      // Still down when the engine opens: the open succeeds and the entry stays pending.
      FaultyGraphStore flaky = new FaultyGraphStore(graphDb.graph()).failNextApplies(1);
      try (Memory memory = open(dir, flaky)) {
        assertThat(flaky.applied()).isZero();
        assertThat(pending(dir)).hasSize(1);
        assertThat(memory.entityRelations(ALICE, "Alice", TimeView.ALL))
            .extracting(r -> r.fact())
            .containsExactly(TEXTS.get(0), TEXTS.get(0));
        assertThat(flaky.applied()).isEqualTo(1);
        assertThat(pending(dir)).isEmpty();
        assertThat(graphOf(graphDb.graph(), memories(memory))).isEqualTo(expected);
      }
    }
  }

  @Test
  void deleteAllAndResetWithPendingGraphChanges() {
    try (SqliteMemoryStore graphDb =
        SqliteMemoryStore.open(graphDir.resolve("graph.db"), Durability.NORMAL)) {
      FaultyGraphStore graph = new FaultyGraphStore(graphDb.graph());
      try (Memory memory = open(dir, graph)) {
        remember(memory, TEXTS.get(0));
        graph.failNextApplies(1);
        assertThatThrownBy(() -> remember(memory, TEXTS.get(1)))
            .isInstanceOf(StorageException.class);
        assertThat(pending(dir)).hasSize(1);
        // The scope's deletion applies the pending entry first, so nothing of the scope survives
        // it.
        assertThat(memory.deleteAll(ALICE)).isEqualTo(2);
        assertThat(pending(dir)).isEmpty();
        assertThat(
                graphDb
                    .graph()
                    .similarEntities(TENANT, ALICE, new HashEmbedder().embedQuery("Alice"), 10))
            .isEmpty();

        remember(memory, TEXTS.get(2));
        graph.failNextApplies(1);
        assertThatThrownBy(() -> remember(memory, TEXTS.get(0)))
            .isInstanceOf(StorageException.class);
        assertThat(pending(dir)).hasSize(1);
        // A reset drops the tenant's pending entries with its memories and graph.
        memory.reset();
        assertThat(pending(dir)).isEmpty();
        assertThat(memories(memory)).isEmpty();
        assertThat(
                graphDb
                    .graph()
                    .similarEntities(TENANT, ALICE, new HashEmbedder().embedQuery("Alice"), 10))
            .isEmpty();
        remember(memory, TEXTS.get(1));
        assertThat(graphOf(graphDb.graph(), memories(memory)))
            .isEqualTo(faultlessGraph(TEXTS.subList(1, 2)));
      }
    }
  }

  @Test
  void aKillBetweenTheMemoryCommitAndTheGraphCommitIsRepairedOnOpen() throws Exception {
    Set<String> expected = faultlessGraph(TEXTS);
    Path graphFile = graphDir.resolve("graph.db");
    List<String> args = new ArrayList<>(List.of(dir.toString(), graphFile.toString(), "2"));
    args.addAll(TEXTS);
    Process child = ChildJvm.start(tmp, GraphOutboxCrashWriter.class, args.toArray(String[]::new));
    String out =
        new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(child.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(child.exitValue()).as("stderr:%n%s", ChildJvm.stderr(tmp)).isEqualTo(9);
    // Two adds were acknowledged; the third died after its memory commit, before its graph commit.
    assertThat(out.lines()).containsExactly("ACK 0", "ACK 1");
    assertThat(pending(dir)).hasSize(1);
    try (SqliteMemoryStore graphDb = SqliteMemoryStore.open(graphFile, Durability.NORMAL)) {
      try (SqliteMemoryStore records =
          SqliteMemoryStore.open(dir.resolve(EmbeddedStorage.DATABASE_FILE), Durability.NORMAL)) {
        assertThat(records.count()).isEqualTo(3);
      }
      try (Memory memory = open(dir, graphDb.graph())) {
        assertThat(pending(dir)).isEmpty();
        List<MemoryItem> memories = memories(memory);
        assertThat(memories)
            .extracting(MemoryItem::text)
            .containsExactlyInAnyOrderElementsOf(TEXTS);
        // Graph and memories agree: every memory has its relations, every relation's memories
        // exist.
        Set<String> linked = new HashSet<>();
        graphDb
            .graph()
            .relationsFromMemories(TENANT, memories.stream().map(MemoryItem::id).toList())
            .forEach(r -> linked.addAll(r.memoryIds()));
        assertThat(linked)
            .isEqualTo(memories.stream().map(MemoryItem::id).collect(Collectors.toSet()));
        assertThat(graphOf(graphDb.graph(), memories)).isEqualTo(expected);
      }
    }
  }
}

package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangePipelines;
import dev.engram.DimensionMismatchException;
import dev.engram.EngramException;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.Message;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.Mem0Filters;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredMemory;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@link MemoryStore} contract: what every system of record must do, checked through the SPI
 * alone. A backend runs it by subclassing and implementing {@link #openStorage}.
 */
public abstract class MemoryStoreContract extends StorageContractSupport {
  private static final Scope ALICE = Scope.user("alice");
  private static final Scope BOB = Scope.user("bob");
  private static final LocalDate TODAY = LocalDate.of(2024, 6, 1);

  @Test
  void aMemoryIsReadBackExactly() {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("stars", 4);
    metadata.put("ratio", -0.0);
    metadata.put("big", 2.5);
    metadata.put("tags", List.of("a", 1, true));
    metadata.put("nested", Map.of("x", List.of(Map.of("y", "z"))));
    metadata.put("none", null);
    metadata.put("text", "ç İ 😀 ，");
    Instant t = Instant.parse("2024-05-01T10:00:00.123456789Z");
    MemoryItem item =
        new MemoryItem(
            "m1",
            "Alice plays the cello 😀",
            dev.engram.Hashes.md5("x"),
            metadata,
            "alice",
            "bot",
            "run-1",
            "Alice",
            Role.USER,
            t,
            t.plusNanos(1),
            Instant.parse("2023-01-02T03:04:05.000000001Z"),
            List.of("msg-1", "msg-2"),
            LocalDate.of(2030, 1, 1));
    float[] vector = {0.5f, -0.25f, 0, 1e-7f, 1, -1, 0.125f, 3.4e38f};
    add(new StoredMemory("t1", item, vector));

    StoredMemory read = store.get("t1", "m1").orElseThrow();
    assertThat(read.item()).isEqualTo(item);
    assertThat(read.tenant()).isEqualTo("t1");
    assertThat(read.embedding()).containsExactly(vector);
    assertThat(store.getAll("t1", List.of("m1", "missing")))
        .extracting(StoredMemory::item)
        .containsExactly(item);
    assertThat(store.metadata("t1", List.of("m1", "missing")))
        .containsOnlyKeys("m1")
        .containsEntry("m1", metadata);
    assertThat(store.metadata("t1", List.of())).isEmpty();
    assertThat(store.count()).isEqualTo(1);

    reopen();
    assertThat(store.get("t1", "m1").orElseThrow().item()).isEqualTo(item);
  }

  /**
   * Reads after a write see it, however the memories were read before: whole ({@link
   * MemoryStore#getAll}) or their metadata alone ({@link MemoryStore#metadata}), which a store may
   * keep between reads.
   */
  @Test
  void readsAfterAWriteSeeItWhateverWasReadBefore() {
    StoredMemory a = withMetadata(memory("t1", "a", ALICE, "likes tea", 0), Map.of("n", 1));
    StoredMemory b = memory("t1", "b", ALICE, "likes jazz", 1);
    StoredMemory c = withMetadata(memory("t1", "c", BOB, "likes chess", 2), Map.of("n", 3));
    add(a, b, c);
    add(memory("t2", "a", ALICE, "another tenant's a", 3));
    assertThat(store.getAll("t1", List.of("a", "b"))).hasSize(2);
    assertThat(store.metadata("t1", List.of("a", "b", "c")))
        .containsEntry("a", Map.of("n", 1))
        .containsEntry("c", Map.of("n", 3));
    assertThat(store.getAll("t2", List.of("a"))).hasSize(1);

    StoredMemory a2 =
        withMetadata(
            stored("t1", item("a", ALICE, "likes green tea"), 4), Map.of("n", 2, "kind", "x"));
    StoredMemory c2 = withMetadata(stored("t1", item("c", BOB, "likes go"), 5), Map.of());
    commit(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.update(a2, "likes tea", ChangePipelines.UPDATE),
                MemoryChange.update(c2, "likes chess", ChangePipelines.UPDATE),
                MemoryChange.delete(b, ChangePipelines.DELETE, DELETED_AT))));

    assertThat(store.getAll("t1", List.of("a", "b", "c")))
        .extracting(m -> m.item().text())
        .containsExactlyInAnyOrder("likes green tea", "likes go");
    assertThat(store.getAll("t1", List.of("a")))
        .singleElement()
        .satisfies(m -> assertThat(m.embedding()).containsExactly(axis(4)));
    assertThat(store.metadata("t1", List.of("a", "b", "c")))
        .containsOnlyKeys("a", "c")
        .containsEntry("a", Map.of("n", 2, "kind", "x"))
        .containsEntry("c", Map.of());
    assertThat(store.getAll("t2", List.of("a")))
        .extracting(m -> m.item().text())
        .containsExactly("another tenant's a");

    store.reset("t1");
    assertThat(store.getAll("t1", List.of("a", "c"))).isEmpty();
    assertThat(store.metadata("t1", List.of("a", "c"))).isEmpty();
    assertThat(store.getAll("t2", List.of("a"))).hasSize(1);
    assertThat(store.metadata("t2", List.of("a"))).containsOnlyKeys("a");
  }

  private static StoredMemory withMetadata(StoredMemory m, Map<String, Object> metadata) {
    MemoryItem i = m.item();
    return m.withItem(
        new MemoryItem(
            i.id(),
            i.text(),
            i.hash(),
            metadata,
            i.userId(),
            i.agentId(),
            i.runId(),
            i.actorId(),
            i.role(),
            i.createdAt(),
            i.updatedAt(),
            i.eventTime(),
            i.sourceIds(),
            i.expirationDate()));
  }

  @Test
  void aMemoryKeepsItsSourceContextThroughWritesReadsAndTheChangeFeed() {
    String context = "What are your plans for the summer?\nResearching adoption agencies, ç İ 😀 ，";
    StoredMemory withContext =
        new StoredMemory("t1", item("a", ALICE, "Researching adoption agencies"), axis(0), context);
    add(withContext, memory("t1", "b", ALICE, "no context here", 1));
    assertThat(store.get("t1", "a").orElseThrow().context()).isEqualTo(context);
    assertThat(store.get("t1", "b").orElseThrow().context()).isEmpty();
    assertThat(store.getAll("t1", List.of("a", "b")))
        .extracting(StoredMemory::context)
        .containsExactlyInAnyOrder(context, "");

    StoredMemory changed =
        withContext.withItem(item("a", ALICE, "Researching adoption agencies in June"));
    commit(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.update(
                    changed, "Researching adoption agencies", ChangePipelines.UPDATE))));
    reopen();
    assertThat(store.get("t1", "a").orElseThrow().context()).isEqualTo(context);
    List<MemoryStore.Change> feed = new ArrayList<>();
    store.changesSince(0, feed::add);
    assertThat(feed)
        .filteredOn(c -> c.memoryId().equals("a"))
        .singleElement()
        .satisfies(c -> assertThat(c.current().context()).isEqualTo(context));
    List<String> contexts = new ArrayList<>();
    store.forEach(m -> contexts.add(m.id() + "=" + m.context()));
    assertThat(contexts).containsExactlyInAnyOrder("a=" + context, "b=");
  }

  @Test
  void aContextEmbeddingIsKeptExactlyThroughWritesReadsAndTheChangeFeedAndAnUpdateCanDropIt() {
    float[] vector = {0.5f, -0.25f, 0, 1e-7f, 1, -1, 0.125f, 3.4e38f};
    StoredMemory embedded =
        new StoredMemory(
            "t1",
            item("a", ALICE, "Researching adoption agencies"),
            axis(0),
            "What are your plans for the summer?",
            vector);
    add(
        embedded,
        new StoredMemory("t1", item("b", ALICE, "context, not embedded"), axis(1), "Hello"));
    assertThat(store.get("t1", "a").orElseThrow().contextEmbedding()).containsExactly(vector);
    assertThat(store.get("t1", "b").orElseThrow().contextEmbedding()).isEmpty();
    assertThat(store.getAll("t1", List.of("a", "b")))
        .extracting(m -> m.contextEmbedding().length)
        .containsExactlyInAnyOrder(vector.length, 0);

    reopen();
    assertThat(store.get("t1", "a").orElseThrow().contextEmbedding()).containsExactly(vector);
    List<MemoryStore.Change> feed = new ArrayList<>();
    store.changesSince(0, feed::add);
    assertThat(feed)
        .filteredOn(c -> c.memoryId().equals("a"))
        .singleElement()
        .satisfies(c -> assertThat(c.current().contextEmbedding()).containsExactly(vector));
    List<Integer> lengths = new ArrayList<>();
    store.forEach(m -> lengths.add(m.contextEmbedding().length));
    assertThat(lengths).containsExactlyInAnyOrder(vector.length, 0);

    StoredMemory dropped =
        embedded
            .withItem(item("a", ALICE, "Researching adoption agencies in June"))
            .withContextEmbedding(new float[0]);
    commit(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.update(
                    dropped, "Researching adoption agencies", ChangePipelines.UPDATE))));
    assertThat(store.get("t1", "a").orElseThrow().contextEmbedding()).isEmpty();
    assertThat(store.get("t1", "a").orElseThrow().context())
        .isEqualTo("What are your plans for the summer?");
  }

  @Test
  void everyChangeWritesOneHistoryRowInSequence() {
    StoredMemory m = spoken("t1", "m1", ALICE, "likes tea", "Alice", Role.USER);
    long added = add(m);
    MemoryItem changed =
        m.item()
            .withContent(
                "likes coffee", m.item().metadata(), null, m.item().createdAt().plusSeconds(5));
    long updated =
        commit(
            ChangeSet.of(
                "t1",
                List.of(
                    MemoryChange.update(
                        new StoredMemory("t1", changed, axis(1)),
                        "likes tea",
                        ChangePipelines.UPDATE))));
    long deleted =
        commit(
            ChangeSet.of(
                "t1",
                List.of(
                    MemoryChange.delete(
                        new StoredMemory("t1", changed, axis(1)),
                        ChangePipelines.DELETE,
                        DELETED_AT))));

    assertThat(added).isLessThan(updated);
    assertThat(updated).isLessThan(deleted);
    assertThat(store.lastSeq()).isEqualTo(deleted);
    assertThat(store.get("t1", "m1")).isEmpty();
    List<HistoryEntry> h = store.history("t1", "m1");
    assertThat(h)
        .extracting(HistoryEntry::event)
        .containsExactly(EventType.ADD, EventType.UPDATE, EventType.DELETE);
    assertThat(h)
        .extracting(HistoryEntry::pipeline)
        .containsExactly(ChangePipelines.RAW, ChangePipelines.UPDATE, ChangePipelines.DELETE);
    assertThat(h).extracting(HistoryEntry::seq).containsExactly(added, updated, deleted);
    assertThat(h.get(0).oldText()).isNull();
    assertThat(h.get(0).newText()).isEqualTo("likes tea");
    assertThat(h.get(0).actorId()).isEqualTo("Alice");
    assertThat(h.get(0).role()).isEqualTo(Role.USER);
    assertThat(h.get(0).at()).isEqualTo(m.item().createdAt());
    assertThat(h.get(1).oldText()).isEqualTo("likes tea");
    assertThat(h.get(1).newText()).isEqualTo("likes coffee");
    assertThat(h.get(1).at()).isEqualTo(changed.updatedAt());
    assertThat(h.get(2).oldText()).isEqualTo("likes coffee");
    assertThat(h.get(2).newText()).isNull();
    assertThat(h.get(2).at())
        .as("a delete's row takes the change's time, not a clock of the store's")
        .isEqualTo(DELETED_AT);
    assertThat(store.history("t2", "m1")).isEmpty();
    assertThat(store.history("t1", "unknown")).isEmpty();
  }

  @Test
  void aChangeSetThatFailsWritesNothing() {
    add(memory("t1", "old", ALICE, "already here", 0));
    long before = store.lastSeq();
    StoredMemory fresh = memory("t1", "fresh", ALICE, "would be new", 1);
    ChangeSet duplicate =
        new ChangeSet(
            "t1",
            List.of(
                MemoryChange.add(fresh, null, null, ChangePipelines.RAW),
                MemoryChange.add(
                    memory("t1", "old", ALICE, "again", 2), null, null, ChangePipelines.RAW)),
            List.of(new ChangeSet.WindowAppend(ALICE, List.of(Message.user("hello")), 10)));
    assertThatThrownBy(() -> store.apply(duplicate)).isInstanceOf(EngramException.class);

    StoredMemory ghost = memory("t1", "ghost", ALICE, "not stored", 3);
    ChangeSet missing =
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.add(fresh, null, null, ChangePipelines.RAW),
                MemoryChange.update(ghost, "x", ChangePipelines.UPDATE)));
    assertThatThrownBy(() -> store.apply(missing)).isInstanceOf(MemoryNotFoundException.class);

    assertThat(store.get("t1", "fresh")).isEmpty();
    assertThat(store.history("t1", "fresh")).isEmpty();
    assertThat(store.get("t1", "old").orElseThrow().item().text()).isEqualTo("already here");
    assertThat(store.recentMessages("t1", ALICE, 10)).isEmpty();
    assertThat(store.lastSeq()).isEqualTo(before);
    assertThat(store.count()).isEqualTo(1);
  }

  @Test
  void anEmbeddingOfAnotherDimensionIsRefusedOnceTheSpecIsRecorded() {
    assertThat(store.embeddingSpec()).isEmpty();
    store.recordEmbeddingSpec(new EmbeddingSpec("model-x", DIMENSION));
    assertThat(store.embeddingSpec()).contains(new EmbeddingSpec("model-x", DIMENSION));
    StoredMemory wrong =
        new StoredMemory("t1", item("m1", ALICE, "short vector"), new float[] {1, 0});
    assertThatThrownBy(
            () ->
                store.apply(
                    ChangeSet.of(
                        "t1", List.of(MemoryChange.add(wrong, null, null, ChangePipelines.RAW)))))
        .isInstanceOf(DimensionMismatchException.class);
    assertThat(store.count()).isZero();
    reopen();
    assertThat(store.embeddingSpec()).contains(new EmbeddingSpec("model-x", DIMENSION));
  }

  @Test
  void tenantsNeverSeeEachOther() {
    MemoryItem shared = item("same-id", ALICE, "the same memory in two tenants");
    add(stored("t1", shared, 0));
    add(stored("t2", shared, 1));
    add(memory("t2", "only-t2", ALICE, "only in t2", 2));

    assertThat(store.get("t1", "only-t2")).isEmpty();
    assertThat(store.getAll("t1", List.of("same-id", "only-t2")))
        .extracting(StoredMemory::tenant)
        .containsExactly("t1");
    assertThat(store.metadata("t1", List.of("same-id", "only-t2"))).containsOnlyKeys("same-id");
    assertThat(store.list("t1", ListRequest.of(ALICE), TODAY).total()).isEqualTo(1);
    assertThat(store.list("t2", ListRequest.of(ALICE), TODAY).total()).isEqualTo(2);
    assertThat(store.findByHash("t1", ALICE, shared.hash())).hasSize(1);
    assertThat(store.history("t1", "same-id")).hasSize(1);

    long generation = store.generation();
    long seq = store.lastSeq();
    store.reset("t2");
    assertThat(store.generation()).isGreaterThan(generation);
    assertThat(store.lastSeq()).isGreaterThanOrEqualTo(seq);
    assertThat(store.get("t2", "same-id")).isEmpty();
    assertThat(store.history("t2", "same-id")).isEmpty();
    assertThat(store.get("t1", "same-id")).isPresent();
    assertThat(store.count()).isEqualTo(1);
    long next = add(memory("t2", "after-reset", ALICE, "written after the reset", 3));
    assertThat(next).isGreaterThan(seq);
  }

  @Test
  void listPagesNewestFirstWithinTheScope() {
    List<StoredMemory> all = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      Scope scope = i % 5 == 0 ? Scope.of("alice", "bot", null) : i % 7 == 0 ? BOB : ALICE;
      all.add(memory("t1", String.format("m%02d", i), scope, "memory " + i, i % DIMENSION));
    }
    add(all.toArray(StoredMemory[]::new));
    List<String> alice =
        all.stream()
            .map(StoredMemory::item)
            .filter(m -> "alice".equals(m.userId()))
            .sorted(InMemoryMemoryStore.NEWEST_FIRST)
            .map(MemoryItem::id)
            .toList();

    Page<MemoryItem> first = store.list("t1", ListRequest.of(ALICE).withPage(0, 7), TODAY);
    Page<MemoryItem> second = store.list("t1", ListRequest.of(ALICE).withPage(7, 7), TODAY);
    Page<MemoryItem> beyond = store.list("t1", ListRequest.of(ALICE).withPage(100, 7), TODAY);
    assertThat(first.total()).isEqualTo(alice.size());
    assertThat(first.items())
        .extracting(MemoryItem::id)
        .containsExactlyElementsOf(alice.subList(0, 7));
    assertThat(second.items())
        .extracting(MemoryItem::id)
        .containsExactlyElementsOf(alice.subList(7, 14));
    assertThat(beyond.items()).isEmpty();
    assertThat(beyond.total()).isEqualTo(alice.size());
    assertThat(store.list("t1", ListRequest.of(Scope.of("alice", "bot", null)), TODAY).items())
        .extracting(MemoryItem::id)
        .containsExactly("m20", "m15", "m10", "m05", "m00");
    assertThat(store.list("t1", ListRequest.of(Scope.agent("bot")), TODAY).total()).isEqualTo(5);
    assertThat(
            store
                .list(
                    "t1",
                    ListRequest.of(ALICE)
                        .withFilter(Mem0Filters.fromMap(Map.of("agent_id", "bot"))),
                    TODAY)
                .total())
        .isEqualTo(5);
  }

  @Test
  void expiredMemoriesAreLeftOutUnlessAskedFor() {
    add(
        expiring("gone", TODAY.minusDays(1)),
        expiring("today", TODAY),
        expiring("tomorrow", TODAY.plusDays(1)),
        expiring("never", null));
    assertThat(store.list("t1", ListRequest.of(ALICE), TODAY).items())
        .extracting(MemoryItem::id)
        .containsExactlyInAnyOrder("tomorrow", "never");
    assertThat(store.list("t1", ListRequest.of(ALICE).withIncludeExpired(true), TODAY).total())
        .isEqualTo(4);
    assertThat(store.expiredIds("t1", TODAY, 10)).containsExactly("gone", "today");
    assertThat(store.expiredIds("t1", TODAY, 1)).containsExactly("gone");
    assertThat(store.expiredIds("t2", TODAY, 10)).isEmpty();
  }

  private StoredMemory expiring(String id, LocalDate expiration) {
    MemoryItem i = item(id, ALICE, "expiring " + id);
    return new StoredMemory(
        "t1",
        new MemoryItem(
            i.id(),
            i.text(),
            i.hash(),
            i.metadata(),
            i.userId(),
            null,
            null,
            null,
            null,
            i.createdAt(),
            i.updatedAt(),
            null,
            List.of(),
            expiration),
        axis(0));
  }

  @Test
  void findByHashStaysInTheScope() {
    MemoryItem a = item("a", ALICE, "same text");
    MemoryItem b = item("b", BOB, "same text");
    add(stored("t1", a, 0), stored("t1", b, 0), memory("t1", "c", ALICE, "other text", 0));
    assertThat(store.findByHash("t1", ALICE, a.hash()))
        .extracting(MemoryItem::id)
        .containsExactly("a");
    assertThat(store.findByHash("t1", Scope.user("carol"), a.hash())).isEmpty();
  }

  @Test
  void windowsKeepTheNewestMessagesOfTheirScope() {
    Instant t = Instant.parse("2024-05-01T10:00:00.5Z");
    List<Message> first =
        List.of(
            Message.user("one").withName("Alice").withTimestamp(t).withSourceId("s1"),
            Message.assistant("two"),
            Message.user("three"));
    commit(
        new ChangeSet(
            "t1",
            List.of(),
            List.of(
                new ChangeSet.WindowAppend(ALICE, first, 4),
                new ChangeSet.WindowAppend(BOB, List.of(Message.user("bob's")), 4))));
    assertThat(store.recentMessages("t1", ALICE, 10)).containsExactlyElementsOf(first);
    commit(
        new ChangeSet(
            "t1",
            List.of(),
            List.of(
                new ChangeSet.WindowAppend(
                    ALICE,
                    List.of(Message.user("four"), Message.user("five"), Message.user("six")),
                    4))));
    assertThat(store.recentMessages("t1", ALICE, 10))
        .extracting(Message::content)
        .containsExactly("three", "four", "five", "six");
    assertThat(store.recentMessages("t1", ALICE, 2))
        .extracting(Message::content)
        .containsExactly("five", "six");
    assertThat(store.recentMessages("t1", BOB, 10))
        .extracting(Message::content)
        .containsExactly("bob's");
    assertThat(store.recentMessages("t2", ALICE, 10)).isEmpty();
    assertThat(store.recentMessages("t1", Scope.of("alice", "bot", null), 10)).isEmpty();
  }

  @Test
  void summariesAreReplacedPerScope() {
    assertThat(store.summary("t1", ALICE)).isEmpty();
    store.saveSummary("t1", ALICE, "first");
    store.saveSummary("t1", ALICE, "second");
    store.saveSummary("t1", BOB, "bob");
    assertThat(store.summary("t1", ALICE)).contains("second");
    assertThat(store.summary("t2", ALICE)).isEmpty();
    store.reset("t1");
    assertThat(store.summary("t1", BOB)).isEmpty();
  }

  @Test
  void theChangeFeedGivesEachMemoryOnceWithItsCurrentState() {
    assertThat(store.lastSeq()).isZero();
    long s1 = add(memory("t1", "a", ALICE, "a", 0), memory("t1", "b", ALICE, "b", 1));
    StoredMemory c = memory("t2", "c", ALICE, "c", 2);
    long s2 = add(c);
    StoredMemory a2 = new StoredMemory("t1", item("a", ALICE, "a changed"), axis(3));
    long s3 =
        commit(ChangeSet.of("t1", List.of(MemoryChange.update(a2, "a", ChangePipelines.UPDATE))));
    long s4 =
        commit(
            ChangeSet.of(
                "t1",
                List.of(
                    MemoryChange.delete(
                        store.get("t1", "b").orElseThrow(), ChangePipelines.DELETE, DELETED_AT))));

    List<MemoryStore.Change> all = new ArrayList<>();
    store.changesSince(0, all::add);
    assertThat(all).extracting(MemoryStore.Change::memoryId).containsExactly("c", "a", "b");
    assertThat(all).extracting(MemoryStore.Change::seq).containsExactly(s2, s3, s4);
    assertThat(all.get(0).tenant()).isEqualTo("t2");
    assertThat(all.get(1).current().item().text()).isEqualTo("a changed");
    assertThat(all.get(2).current()).isNull();
    List<MemoryStore.Change> later = new ArrayList<>();
    store.changesSince(s2, later::add);
    assertThat(later).extracting(MemoryStore.Change::memoryId).containsExactly("a", "b");
    List<MemoryStore.Change> none = new ArrayList<>();
    store.changesSince(s4, none::add);
    assertThat(none).isEmpty();
    assertThat(s1).isLessThan(s2);

    List<String> everything = new ArrayList<>();
    store.forEach(m -> everything.add(m.tenant() + "/" + m.id()));
    assertThat(everything).containsExactlyInAnyOrder("t1/a", "t2/c");
  }
}

package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.T0;
import static dev.engram.sqlite.Memories.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ChangePipelines;
import dev.engram.DimensionMismatchException;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.StorageException;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.EmbeddingSpec;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.StoredMemory;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqliteMemoryStoreTest extends SqliteStoreTestCase {
  static final Instant DELETED_AT = Instant.parse("2024-06-01T12:00:00.123456789Z");
  static final LocalDate TODAY = LocalDate.of(2024, 6, 1);

  static SqliteMemoryStore open(Path dir) {
    return SqliteMemoryStore.open(dir.resolve("sub/engram.db"), Durability.NORMAL);
  }

  static long add(SqliteMemoryStore s, StoredMemory... memories) {
    List<MemoryChange> changes = new ArrayList<>();
    for (StoredMemory m : memories) {
      changes.add(MemoryChange.add(m, m.item().actorId(), m.item().role(), ChangePipelines.RAW));
    }
    return s.apply(ChangeSet.of(memories[0].tenant(), changes));
  }

  @Test
  void aMemoryRoundTripsEveryFieldExactly() {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("topic", "food");
    metadata.put("count", 3);
    metadata.put("big", 12_345_678_901L);
    metadata.put("score", 0.1);
    metadata.put("vegan", true);
    metadata.put("tags", List.of("a", "b"));
    metadata.put("nested", Map.of("x", List.of(1, 2.5, false)));
    metadata.put("nothing", null);
    metadata.put("key \"with\" 'quotes' $.[]", "ünïcödé 😀");
    StoredMemory m =
        memory()
            .text("Caroline likes \"green\" tea")
            .metadata(metadata)
            .scope("alice", "bot", "r1")
            .actor("Caroline", Role.USER)
            .created(Instant.parse("2024-05-01T08:00:00.123456789Z"))
            .updated(Instant.parse("2024-05-02T09:30:00.000000001Z"))
            .eventTime(Instant.parse("1999-12-31T23:59:59.999Z"))
            .sources(List.of("D1:3", "D1:4"))
            .expires(LocalDate.of(2030, 1, 2))
            .stored();

    long seq = add(store, m);

    StoredMemory got = store.get("t1", m.id()).orElseThrow();
    assertThat(seq).isEqualTo(1);
    assertThat(got.tenant()).isEqualTo("t1");
    assertThat(got.item()).isEqualTo(m.item());
    assertThat(got.item().metadata().keySet()).containsExactlyElementsOf(metadata.keySet());
    assertThat(got.embedding()).containsExactly(m.embedding());
  }

  @Test
  void absentOptionalFieldsStayAbsent() {
    StoredMemory m = memory().scope(null, "bot", null).stored();
    add(store, m);

    MemoryItem got = store.get("t1", m.id()).orElseThrow().item();
    assertThat(got).isEqualTo(m.item());
    assertThat(got.userId()).isNull();
    assertThat(got.role()).isNull();
    assertThat(got.eventTime()).isNull();
    assertThat(got.expirationDate()).isNull();
    assertThat(got.sourceIds()).isEmpty();
    assertThat(got.metadata()).isEmpty();
  }

  @Test
  void getAllReturnsTheExistingMemoriesOfTheTenantInOneCall() {
    List<StoredMemory> all = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      all.add(memory().text("fact " + i).created(T0.plusSeconds(i)).stored());
    }
    add(store, all.toArray(StoredMemory[]::new));
    List<String> wanted = new ArrayList<>();
    for (int i = 0; i < 50; i += 2) {
      wanted.add(all.get(i).id());
    }
    wanted.add("no-such-id");
    wanted.add(all.get(0).id());

    List<StoredMemory> got = store.getAll("t1", wanted);

    assertThat(got)
        .extracting(StoredMemory::id)
        .containsExactlyInAnyOrderElementsOf(wanted.subList(0, 25));
    assertThat(store.getAll("t1", List.of())).isEmpty();
    assertThat(store.getAll("t2", wanted)).isEmpty();
  }

  @Test
  void listIsNewestFirstThenByIdWithPagination() {
    StoredMemory a = memory().id("a").created(T0.plusSeconds(10)).stored();
    StoredMemory b = memory().id("b").created(T0.plusSeconds(10)).stored();
    StoredMemory c = memory().id("c").created(T0.plusSeconds(10).plusNanos(1)).stored();
    StoredMemory d = memory().id("d").created(T0).stored();
    StoredMemory other =
        memory().id("e").scope("bob", null, null).created(T0.plusSeconds(99)).stored();
    add(store, d, b, other, a, c);

    Page<MemoryItem> first =
        store.list("t1", ListRequest.of(Scope.user("alice")).withPage(0, 3), TODAY);
    Page<MemoryItem> second =
        store.list("t1", ListRequest.of(Scope.user("alice")).withPage(3, 3), TODAY);
    Page<MemoryItem> beyond =
        store.list("t1", ListRequest.of(Scope.user("alice")).withPage(10, 3), TODAY);

    assertThat(first.items()).extracting(MemoryItem::id).containsExactly("c", "a", "b");
    assertThat(first.total()).isEqualTo(4);
    assertThat(first.hasMore()).isTrue();
    assertThat(second.items()).extracting(MemoryItem::id).containsExactly("d");
    assertThat(second.offset()).isEqualTo(3);
    assertThat(second.hasMore()).isFalse();
    assertThat(beyond.items()).isEmpty();
    assertThat(beyond.total()).isEqualTo(4);
  }

  @Test
  void scopesMatchOnTheIdsTheySetOnly() {
    StoredMemory userOnly = memory().id("u").scope("alice", null, null).stored();
    StoredMemory userAgent = memory().id("ua").scope("alice", "bot", null).stored();
    StoredMemory userAgentRun = memory().id("uar").scope("alice", "bot", "r1").stored();
    StoredMemory agentOnly = memory().id("a").scope(null, "bot", null).stored();
    add(store, userOnly, userAgent, userAgentRun, agentOnly);

    assertThat(ids(Scope.user("alice"))).containsExactlyInAnyOrder("u", "ua", "uar");
    assertThat(ids(Scope.agent("bot"))).containsExactlyInAnyOrder("ua", "uar", "a");
    assertThat(ids(Scope.of("alice", "bot", null))).containsExactlyInAnyOrder("ua", "uar");
    assertThat(ids(Scope.run("r1"))).containsExactly("uar");
    assertThat(ids(Scope.user("bob"))).isEmpty();
    String hash = userOnly.item().hash();
    assertThat(store.findByHash("t1", Scope.agent("bot"), hash))
        .extracting(MemoryItem::id)
        .containsExactlyInAnyOrder("ua", "uar", "a");
    assertThat(store.findByHash("t1", Scope.of("alice", null, "r1"), hash))
        .extracting(MemoryItem::id)
        .containsExactly("uar");
    assertThat(store.findByHash("t1", Scope.user("alice"), "0".repeat(32))).isEmpty();
  }

  @Test
  void aLookupByHashReadsTheHashIndexNotTheScopesRows() throws Exception {
    List<StoredMemory> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      rows.add(
          memory()
              .id("m" + i)
              .text("fact number " + i)
              .scope("alice", i % 2 == 0 ? "bot" : null, i % 3 == 0 ? "r1" : null)
              .created(T0.plusSeconds(i))
              .stored());
    }
    add(store, rows.toArray(StoredMemory[]::new));
    String hash = rows.get(150).item().hash();
    for (Scope scope :
        List.of(
            Scope.user("alice"),
            Scope.agent("bot"),
            Scope.run("r1"),
            Scope.of("alice", "bot", "r1"))) {
      dev.engram.spi.sql.Sql query = Reads.findByHashQuery("t1", scope, hash);
      try (java.sql.Connection c =
              java.sql.DriverManager.getConnection("jdbc:sqlite:" + store.file());
          java.sql.PreparedStatement ps =
              c.prepareStatement("EXPLAIN QUERY PLAN " + query.text())) {
        query.bind(ps, 1);
        List<String> plan = new ArrayList<>();
        try (java.sql.ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            plan.add(rs.getString("detail"));
          }
        }
        assertThat(plan)
            .as("plan for %s", scope)
            .anyMatch(d -> d.contains("USING INDEX memories_hash"))
            .noneMatch(d -> d.contains("memories_listing") || d.contains("memories_scope"));
      }
    }
    assertThat(store.findByHash("t1", Scope.user("alice"), hash))
        .extracting(MemoryItem::id)
        .containsExactly("m150");
    assertThat(store.findByHash("t1", Scope.agent("bot"), hash))
        .extracting(MemoryItem::id)
        .containsExactly("m150");
    assertThat(store.findByHash("t1", Scope.run("r1"), hash))
        .extracting(MemoryItem::id)
        .containsExactly("m150");
    assertThat(store.findByHash("t1", Scope.run("r2"), hash)).isEmpty();
    assertThat(store.findByHash("t2", Scope.user("alice"), hash)).isEmpty();
  }

  @Test
  void theChangeFeedReadsTheSequenceRangeNotTheWholeHistory() throws Exception {
    List<StoredMemory> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(memory().id("c" + i).text("change " + i).stored());
    }
    add(store, rows.toArray(StoredMemory[]::new));
    try (java.sql.Connection c =
            java.sql.DriverManager.getConnection("jdbc:sqlite:" + store.file());
        java.sql.PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + Reads.CHANGES)) {
      ps.setLong(1, 40);
      List<String> plan = new ArrayList<>();
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          plan.add(rs.getString("detail"));
        }
      }
      assertThat(plan)
          .anyMatch(d -> d.contains("SEARCH history USING INTEGER PRIMARY KEY"))
          .noneMatch(d -> d.contains("SCAN history"));
    }
    List<String> changed = new ArrayList<>();
    store.changesSince(45, change -> changed.add(change.memoryId()));
    assertThat(changed).hasSize(5);
  }

  private List<String> ids(Scope scope) {
    return store.list("t1", ListRequest.of(scope), TODAY).items().stream()
        .map(MemoryItem::id)
        .toList();
  }

  @Test
  void expiredMemoriesAreLeftOutOfListsUnlessAskedFor() {
    StoredMemory past = memory().id("past").expires(TODAY.minusDays(1)).stored();
    StoredMemory today = memory().id("today").expires(TODAY).stored();
    StoredMemory tomorrow = memory().id("tomorrow").expires(TODAY.plusDays(1)).stored();
    StoredMemory never = memory().id("never").stored();
    add(store, past, today, tomorrow, never);

    ListRequest request = ListRequest.of(Scope.user("alice"));
    assertThat(store.list("t1", request, TODAY).items())
        .extracting(MemoryItem::id)
        .containsExactly("never", "tomorrow");
    assertThat(store.list("t1", request.withIncludeExpired(true), TODAY).total()).isEqualTo(4);
    assertThat(store.expiredIds("t1", TODAY, 10)).containsExactly("past", "today");
    assertThat(store.expiredIds("t1", TODAY, 1)).containsExactly("past");
    assertThat(store.expiredIds("t1", TODAY.minusDays(5), 10)).isEmpty();
    assertThat(store.expiredIds("t2", TODAY, 10)).isEmpty();
  }

  @Test
  void updateAndDeleteWriteHistoryAndDeleteKeepsIt() {
    StoredMemory m = memory().text("likes tea").actor("Caroline", Role.USER).stored();
    long s1 =
        store.apply(
            ChangeSet.of(
                "t1", List.of(MemoryChange.add(m, "Caroline", Role.USER, ChangePipelines.RAW))));
    Instant later = T0.plusSeconds(60).plusNanos(7);
    StoredMemory updated =
        new StoredMemory(
            "t1",
            m.item().withContent("likes green tea", Map.of("v", 2), null, later),
            new float[] {1, 2, 3, 4});
    long s2 =
        store.apply(
            ChangeSet.of(
                "t1", List.of(MemoryChange.update(updated, "likes tea", ChangePipelines.UPDATE))));

    assertThat(store.get("t1", m.id()).orElseThrow().item()).isEqualTo(updated.item());
    assertThat(store.get("t1", m.id()).orElseThrow().embedding()).containsExactly(1, 2, 3, 4);

    long s3 =
        store.apply(
            ChangeSet.of(
                "t1", List.of(MemoryChange.delete(updated, ChangePipelines.DELETE, DELETED_AT))));

    assertThat(List.of(s1, s2, s3)).containsExactly(1L, 2L, 3L);
    assertThat(store.get("t1", m.id())).isEmpty();
    assertThat(store.count()).isZero();
    assertThat(store.history("t1", m.id()))
        .containsExactly(
            new HistoryEntry(
                1,
                m.id(),
                EventType.ADD,
                null,
                "likes tea",
                "Caroline",
                Role.USER,
                T0,
                ChangePipelines.RAW),
            new HistoryEntry(
                2,
                m.id(),
                EventType.UPDATE,
                "likes tea",
                "likes green tea",
                null,
                null,
                later,
                ChangePipelines.UPDATE),
            new HistoryEntry(
                3,
                m.id(),
                EventType.DELETE,
                "likes green tea",
                null,
                null,
                null,
                DELETED_AT,
                ChangePipelines.DELETE));
    assertThat(store.history("t1", "unknown")).isEmpty();
    assertThat(store.lastSeq()).isEqualTo(3);
  }

  @Test
  void applyReturnsTheLastSeqOfTheSetAndLastSeqWithoutMemoryChanges() {
    assertThat(store.lastSeq()).isZero();
    long seq = add(store, memory().stored(), memory().stored(), memory().stored());
    assertThat(seq).isEqualTo(3);
    assertThat(store.apply(ChangeSet.of("t1", List.of()))).isEqualTo(3);
    ChangeSet windowOnly =
        new ChangeSet(
            "t1",
            List.of(),
            List.of(
                new ChangeSet.WindowAppend(
                    Scope.user("alice"), List.of(dev.engram.Message.user("hi")), 5)));
    assertThat(store.apply(windowOnly)).isEqualTo(3);
    assertThat(store.recentMessages("t1", Scope.user("alice"), 5)).hasSize(1);
  }

  @Test
  void countAndForEachCoverEveryTenant() {
    add(store, memory().id("x").stored(), memory().id("y").stored());
    add(store, memory().tenant("t2").id("x").text("other tenant").stored());

    List<String> seen = new ArrayList<>();
    store.forEach(m -> seen.add(m.tenant() + "/" + m.id() + "/" + m.item().text()));

    assertThat(store.count()).isEqualTo(3);
    assertThat(seen)
        .containsExactlyInAnyOrder("t1/x/likes tea", "t1/y/likes tea", "t2/x/other tenant");
  }

  @Test
  void everythingSurvivesReopening() {
    StoredMemory m = memory().stored();
    add(store, m);
    store.recordEmbeddingSpec(new EmbeddingSpec("hash-4", 4));
    store.reset("t9");
    store.close();

    store = open(dir);

    assertThat(store.get("t1", m.id()).orElseThrow().item()).isEqualTo(m.item());
    assertThat(store.embeddingSpec()).contains(new EmbeddingSpec("hash-4", 4));
    assertThat(store.generation()).isEqualTo(1);
    assertThat(store.lastSeq()).isEqualTo(1);
    assertThat(store.file()).isEqualTo(dir.resolve("sub/engram.db").toAbsolutePath());
  }

  @Test
  void theEmbeddingSpecIsRecordedOnceAndEnforced() {
    assertThat(store.embeddingSpec()).isEmpty();
    store.recordEmbeddingSpec(new EmbeddingSpec("hash-4", 4));
    store.recordEmbeddingSpec(new EmbeddingSpec("hash-4", 4));

    assertThatThrownBy(() -> store.recordEmbeddingSpec(new EmbeddingSpec("other", 8)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("hash-4")
        .hasMessageContaining("other");
    StoredMemory wrong = memory().embedding(new float[] {1, 2, 3}).stored();
    assertThatThrownBy(() -> add(store, wrong))
        .isInstanceOf(DimensionMismatchException.class)
        .hasMessageContaining(wrong.id())
        .hasMessageContaining("3-dimensional")
        .hasMessageContaining("hash-4");
    assertThat(store.count()).isZero();
  }

  @Test
  void aClosedStoreFailsClearly() {
    store.close();
    store.close();
    assertThatThrownBy(() -> store.count())
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> add(store, memory().stored()))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void aFileThatIsNotADatabaseIsRejectedWithItsPath() throws Exception {
    Path bogus = dir.resolve("bogus.db");
    java.nio.file.Files.writeString(
        bogus, "this is not a database, just some text that is long enough. ".repeat(20));
    assertThatThrownBy(() -> SqliteMemoryStore.open(bogus, Durability.FULL))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining(bogus.toString());
  }
}

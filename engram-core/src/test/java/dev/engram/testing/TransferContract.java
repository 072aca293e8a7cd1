package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.ChangePipelines;
import dev.engram.Engram;
import dev.engram.EventType;
import dev.engram.ExportRequest;
import dev.engram.Hashes;
import dev.engram.HistoryEntry;
import dev.engram.ImportResult;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.MemoryRecord;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.json.MemoryRecordJson;
import dev.engram.json.MemoryRecordReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Contract: export and import. A store filled through the public API (offline extraction and
 * verbatim adds, updates, deletes, metadata, expiry, several scopes, two tenants) is exported,
 * written as JSON Lines, read back, imported into fresh storage, and compared record by record:
 * items, history, listings and search results.
 */
public abstract class TransferContract extends ConcurrencyContract {
  private static final Scope ALICE_HELPER = Scope.of("alice", "helper", null);
  private static final Scope ALICE_RUN = Scope.of("alice", null, "r1");
  private static final Scope PLANNER = Scope.agent("planner");
  private static final List<Scope> SCOPES = List.of(ALICE, BOB, ALICE_HELPER, ALICE_RUN, PLANNER);
  private static final List<String> QUERIES =
      List.of("cello", "where does alice live", "bees honey", "trip to Lisbon", "planner steps");

  @TempDir Path targetDir;

  /** What {@link #fill()} left: the ids it deleted and kept. */
  private record Filled(List<String> deleted, String acmeId) {}

  private Filled fill() {
    memory.add(
        AddRequest.builder(ALICE)
            .message(
                Message.user(
                        "Hi! I play the cello in an orchestra. I moved to" + " Lisbon last spring.")
                    .withName("Alice")
                    .withSourceId("m1"))
            .timestamp(Instant.parse("2024-04-02T09:30:00Z"))
            .build());
    memory.add(
        AddRequest.builder(ALICE_RUN)
            .message(Message.user("Yesterday I booked a trip to Porto.").withName("Alice"))
            .timestamp(Instant.parse("2024-04-20T18:00:00Z"))
            .metadata(Map.of("topic", "travel"))
            .build());
    String cello =
        memory
            .add(
                AddRequest.builder(ALICE_HELPER)
                    .message(
                        Message.assistant("Alice practises the cello" + " daily")
                            .withSourceId("m2"))
                    .metadata(
                        Map.of(
                            "stars",
                            4,
                            "ratio",
                            0.75,
                            "tags",
                            List.of("music", "daily"),
                            "nested",
                            Map.of("on", true)))
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    memory.update(cello, MemoryUpdate.text("Alice practises the cello twice a day"));
    memory.update(cello, MemoryUpdate.metadata(Map.of("stars", 5, "big", 12345678901234L)));
    String expired =
        memory
            .add(
                AddRequest.builder(BOB)
                    .user("bob keeps bees for honey")
                    .expiration(TODAY.minusDays(1))
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    String future =
        memory
            .add(
                AddRequest.builder(BOB)
                    .user("bob sells honey at the market")
                    .expiration(TODAY.plusDays(30))
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    memory.update(future, MemoryUpdate.expiration(TODAY.plusDays(60)));
    String gone = addVerbatim(BOB, "bob dislikes rain");
    memory.update(gone, MemoryUpdate.text("bob dislikes heavy rain"));
    memory.delete(gone);
    String goneToo = addVerbatim(PLANNER, "planner steps: draft, review, ship");
    addVerbatim(PLANNER, "planner steps: always write tests first");
    memory.delete(goneToo);
    String acme =
        memory
            .forTenant("acme")
            .add(
                AddRequest.builder(ALICE)
                    .user("acme: alice plays the cello at" + " work")
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    assertThat(expired).isNotBlank();
    return new Filled(List.of(gone, goneToo), acme);
  }

  private Memory openTarget(Path target) {
    return Engram.builder()
        .storage(openStorage(target, DIMENSION))
        .embedder(new HashEmbedder())
        .clock(new TickingClock())
        .build();
  }

  /**
   * Writes records as an export file and reads them back, as the command line and the server do.
   */
  private static List<MemoryRecord> throughJsonLines(
      String tenant, Optional<Scope> scope, List<MemoryRecord> records) throws IOException {
    StringBuilder file = new StringBuilder();
    file.append(
            dev.engram.json.MemoryJson.write(
                MemoryRecordJson.header(tenant, scope, TickingClock.START)))
        .append('\n');
    records.forEach(r -> file.append(MemoryRecordJson.line(r)).append('\n'));
    List<MemoryRecord> back = new ArrayList<>();
    try (MemoryRecordReader reader =
        MemoryRecordReader.open(
            new StringReader(file.toString()), Optional.empty(), Optional.empty())) {
      assertThat(reader.format()).isEqualTo(MemoryRecordReader.Format.ENGRAM_JSONL);
      reader.forEachRemaining(back::add);
    }
    return back;
  }

  private static List<HistoryEntry> withoutSeq(List<HistoryEntry> rows) {
    return rows.stream()
        .map(
            h ->
                new HistoryEntry(
                    0,
                    h.memoryId(),
                    h.event(),
                    h.oldText(),
                    h.newText(),
                    h.actorId(),
                    h.role(),
                    h.at(),
                    h.pipeline()))
        .toList();
  }

  private static List<MemoryRecord> withoutSeqs(List<MemoryRecord> records) {
    return records.stream()
        .map(r -> new MemoryRecord(r.id(), r.memory(), withoutSeq(r.history()), r.context()))
        .toList();
  }

  /**
   * A search's hits by id with their cosine similarity (to 6 decimals) and whether BM25 matched
   * them. Fused scores and the order of ties are not compared: BM25 statistics count the deleted
   * documents an index has not merged away yet, and tied ranks follow the order documents entered
   * the index, both of which differ after an import.
   */
  private static Map<String, String> searchIds(Memory m, Scope scope, String query) {
    return m
        .search(
            SearchRequest.builder(scope, query).topK(20).includeExpired(true).explain(true).build())
        .hits()
        .stream()
        .collect(
            Collectors.toMap(
                h -> h.memory().id(),
                h ->
                    String.format(
                        java.util.Locale.ROOT,
                        "cosine %.6f, bm25 %s",
                        h.details().semantic(),
                        h.details().keywordRank() > 0 ? "matched" : "no")));
  }

  private static List<MemoryItem> listAll(Memory m, Scope scope) {
    return m.list(ListRequest.of(scope).withPage(0, 1000).withIncludeExpired(true)).items();
  }

  @Test
  void aTenantSurvivesExportAndImportRecordByRecord() throws IOException {
    Filled filled = fill();
    List<MemoryRecord> exported =
        memory.exportRecords(ExportRequest.wholeTenant().withPageSize(3)).toList();
    List<MemoryRecord> acmeExported =
        memory.forTenant("acme").exportRecords(ExportRequest.wholeTenant()).toList();

    assertThat(exported)
        .extracting(MemoryRecord::id)
        .isSorted()
        .doesNotHaveDuplicates()
        .contains(filled.deleted().toArray(String[]::new))
        .doesNotContain(filled.acmeId());
    assertThat(exported.stream().filter(MemoryRecord::isDeleted).map(MemoryRecord::id))
        .containsExactlyInAnyOrderElementsOf(filled.deleted());
    assertThat(
            exported.stream()
                .flatMap(r -> r.history().stream())
                .map(HistoryEntry::event)
                .distinct())
        .contains(EventType.ADD, EventType.UPDATE, EventType.DELETE);
    assertThat(exported.size()).isGreaterThan(8);
    assertThat(exported)
        .filteredOn(r -> !r.isDeleted())
        .anySatisfy(r -> assertThat(r.context()).isNotEmpty());
    assertThat(exported)
        .filteredOn(MemoryRecord::isDeleted)
        .allSatisfy(r -> assertThat(r.context()).isEmpty());
    assertThat(acmeExported).extracting(MemoryRecord::id).containsExactly(filled.acmeId());
    for (MemoryRecord r : exported) {
      assertThat(r.memory()).isEqualTo(memory.get(r.id()));
      assertThat(r.history()).isEqualTo(memory.history(r.id()));
    }

    List<MemoryRecord> read = throughJsonLines("default", Optional.empty(), exported);
    assertThat(read).isEqualTo(withoutSeqs(exported));

    try (Memory target = openTarget(targetDir)) {
      ImportResult total = new ImportResult(0, List.of());
      for (int i = 0; i < read.size(); i += 4) {
        total = total.plus(target.importRecords(read.subList(i, Math.min(read.size(), i + 4))));
      }
      assertThat(total.imported()).isEqualTo(exported.size());
      assertThat(total.skipped()).isZero();
      assertThat(
              target
                  .forTenant("acme")
                  .importRecords(throughJsonLines("acme", Optional.empty(), acmeExported))
                  .imported())
          .isEqualTo(1);

      for (MemoryRecord r : exported) {
        assertThat(target.get(r.id())).as(r.id()).isEqualTo(memory.get(r.id()));
        assertThat(withoutSeq(target.history(r.id())))
            .as(r.id())
            .isEqualTo(withoutSeq(memory.history(r.id())));
      }
      assertThat(searchIds(target, ALICE, "cello")).hasSizeGreaterThan(1);
      for (Scope scope : SCOPES) {
        assertThat(listAll(target, scope)).as(scope.key()).isEqualTo(listAll(memory, scope));
        for (String q : QUERIES) {
          assertThat(searchIds(target, scope, q))
              .as(scope.key() + " / " + q)
              .isEqualTo(searchIds(memory, scope, q));
        }
      }
      assertThat(target.forTenant("acme").get(filled.acmeId()))
          .isEqualTo(memory.forTenant("acme").get(filled.acmeId()));
      assertThat(target.get(filled.acmeId())).isEmpty();
      assertThat(withoutSeqs(target.exportRecords(ExportRequest.wholeTenant()).toList()))
          .isEqualTo(withoutSeqs(exported));

      ImportResult again = target.importRecords(read);
      assertThat(again.imported()).isZero();
      assertThat(again.skippedIds())
          .containsExactlyElementsOf(read.stream().map(MemoryRecord::id).toList());
    }

    try (Memory reopened = openTarget(targetDir)) {
      for (Scope scope : SCOPES) {
        for (String q : QUERIES) {
          assertThat(searchIds(reopened, scope, q))
              .as("after reopen " + scope.key() + " / " + q)
              .isEqualTo(searchIds(memory, scope, q));
        }
      }
      String added =
          reopened
              .add(AddRequest.builder(ALICE).user("added after the import").infer(false).build())
              .events()
              .get(0)
              .id();
      long lastImported =
          exported.stream()
              .flatMap(r -> reopened.history(r.id()).stream())
              .mapToLong(HistoryEntry::seq)
              .max()
              .orElseThrow();
      assertThat(reopened.history(added).get(0).seq()).isGreaterThan(lastImported);
    }
  }

  @Test
  void anImportEmbedsTheTextsWithTheTargetsOwnEmbedder() {
    fill();
    List<MemoryRecord> exported = memory.exportRecords(ExportRequest.wholeTenant()).toList();
    HashEmbedder other = new HashEmbedder(32, "test-hash-32");
    try (Memory target =
        Engram.builder()
            .storage(openStorage(targetDir, other.dimension()))
            .embedder(other)
            .clock(new TickingClock())
            .build()) {
      assertThat(target.importRecords(exported).imported()).isEqualTo(exported.size());
      for (MemoryRecord r : exported) {
        assertThat(target.get(r.id())).isEqualTo(r.memory());
      }
      String honey =
          target
              .search(SearchRequest.builder(BOB, "honey market").topK(1).build())
              .hits()
              .get(0)
              .memory()
              .text();
      assertThat(honey).isEqualTo("bob sells honey at the market");
    }
  }

  @Test
  void aScopeExportHoldsOnlyThatScopesLiveMemoriesOfThisTenant() {
    Filled filled = fill();
    List<MemoryRecord> alice =
        memory.exportRecords(ExportRequest.of(ALICE).withPageSize(2)).toList();
    List<MemoryItem> aliceListed = listAll(memory, ALICE);

    assertThat(alice)
        .extracting(MemoryRecord::id)
        .isSorted()
        .containsExactlyInAnyOrderElementsOf(aliceListed.stream().map(MemoryItem::id).toList());
    assertThat(alice)
        .allSatisfy(
            r -> {
              assertThat(r.isDeleted()).isFalse();
              assertThat(r.memory().orElseThrow().userId()).isEqualTo("alice");
            });
    assertThat(alice).extracting(MemoryRecord::id).doesNotContain(filled.acmeId());
    assertThat(
            memory
                .exportRecords(ExportRequest.of(ALICE_RUN))
                .map(r -> r.memory().orElseThrow().runId())
                .collect(Collectors.toSet()))
        .containsExactly("r1");
    assertThat(memory.exportRecords(ExportRequest.of(BOB)).toList())
        .extracting(MemoryRecord::id)
        .doesNotContainAnyElementsOf(filled.deleted())
        .hasSize(2);
    assertThat(memory.forTenant("acme").exportRecords(ExportRequest.of(BOB)).toList()).isEmpty();
    assertThat(memory.forTenant("nobody").exportRecords(ExportRequest.wholeTenant()).toList())
        .isEmpty();
  }

  @Test
  void aBadRecordFailsItsWholeBatchAndWritesNothing() {
    Instant at = Instant.parse("2024-03-01T10:00:00Z");
    MemoryItem good =
        new MemoryItem(
            "imported-1",
            "a good memory",
            Hashes.md5("a good memory"),
            Map.of(),
            "alice",
            null,
            null,
            null,
            Role.USER,
            at,
            at,
            null,
            List.of(),
            null);
    MemoryItem badHash =
        new MemoryItem(
            "imported-2",
            "a tampered memory",
            Hashes.md5("something else"),
            Map.of(),
            "alice",
            null,
            null,
            null,
            null,
            at,
            at,
            null,
            List.of(),
            null);
    HistoryEntry add1 =
        new HistoryEntry(
            0,
            "imported-1",
            EventType.ADD,
            null,
            "a good memory",
            null,
            Role.USER,
            at,
            ChangePipelines.RAW);
    HistoryEntry add2 =
        new HistoryEntry(
            0,
            "imported-2",
            EventType.ADD,
            null,
            "a tampered memory",
            null,
            null,
            at,
            ChangePipelines.RAW);
    long before = storedCount();

    assertThatThrownBy(
            () ->
                memory.importRecords(
                    List.of(
                        MemoryRecord.live(good, List.of(add1)),
                        MemoryRecord.live(badHash, List.of(add2)))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("records[1].hash");
    assertThatThrownBy(
            () ->
                memory.importRecords(
                    List.of(
                        MemoryRecord.live(good, List.of(add1)),
                        MemoryRecord.live(good, List.of(add1)))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("records[1].id");
    MemoryItem noScope =
        new MemoryItem(
            "imported-3",
            "no scope",
            Hashes.md5("no scope"),
            Map.of(),
            null,
            null,
            null,
            null,
            null,
            at,
            at,
            null,
            List.of(),
            null);
    assertThatThrownBy(
            () ->
                memory.importRecords(
                    List.of(
                        MemoryRecord.live(
                            noScope,
                            List.of(
                                new HistoryEntry(
                                    0,
                                    "imported-3",
                                    EventType.ADD,
                                    null,
                                    "no scope",
                                    null,
                                    null,
                                    at,
                                    ChangePipelines.RAW))))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("records[0].scope");

    assertThat(storedCount()).isEqualTo(before);
    assertThat(memory.get("imported-1")).isEmpty();
    assertThat(memory.history("imported-1")).isEmpty();
    assertThat(search(ALICE, "good memory")).isEmpty();

    assertThat(memory.importRecords(List.of(MemoryRecord.live(good, List.of(add1)))).imported())
        .isEqualTo(1);
    assertThat(memory.get("imported-1")).contains(good);
    assertThat(search(ALICE, "good memory")).containsExactly("imported-1");
  }
}

package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.ChangePipelines;
import dev.engram.EventType;
import dev.engram.HistoryEntry;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.MemoryNotFoundException;
import dev.engram.MemoryUpdate;
import dev.engram.Page;
import dev.engram.Role;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.filter.Filter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Contract: list, update, delete, deleteAll, history, reset, purgeExpired and the async variants.
 */
public abstract class ChangeContract extends SearchContract {

  @Test
  void listPagesNewestFirstWithTotals() {
    for (int i = 1; i <= 5; i++) {
      addVerbatim(ALICE, "note number " + i);
    }
    addVerbatim(BOB, "note of bob");

    Page<MemoryItem> first = memory.list(ListRequest.of(ALICE).withPage(0, 2));
    assertThat(first.items())
        .extracting(MemoryItem::text)
        .containsExactly("note number 5", "note number 4");
    assertThat(first.total()).isEqualTo(5);
    assertThat(first.offset()).isZero();
    assertThat(first.hasMore()).isTrue();
    Page<MemoryItem> middle = memory.list(ListRequest.of(ALICE).withPage(2, 2));
    assertThat(middle.items())
        .extracting(MemoryItem::text)
        .containsExactly("note number 3", "note number 2");
    Page<MemoryItem> last = memory.list(ListRequest.of(ALICE).withPage(4, 2));
    assertThat(last.items()).extracting(MemoryItem::text).containsExactly("note number 1");
    assertThat(last.hasMore()).isFalse();
    assertThat(memory.list(ListRequest.of(ALICE).withPage(10, 2)).items()).isEmpty();
    assertThat(memory.list(ListRequest.of(ALICE).withPage(10, 2)).total()).isEqualTo(5);
    assertThat(
            memory
                .list(ListRequest.of(ALICE).withFilter(Filter.eq("memory", "note number 3")))
                .items())
        .extracting(MemoryItem::text)
        .containsExactly("note number 3");
    assertThat(memory.list(ListRequest.of(dev.engram.Scope.user("nobody"))).total()).isZero();
  }

  @Test
  void updateTextReembedsAndRecordsHistory() {
    String id = addVerbatim(ALICE, "I live in Porto");
    addVerbatim(ALICE, "I have a cat named Miso");
    MemoryItem before = memory.get(id).orElseThrow();

    MemoryItem after = memory.update(id, MemoryUpdate.text("I live in Lisbon"));

    assertThat(after.text()).isEqualTo("I live in Lisbon");
    assertThat(memory.get(id)).contains(after);
    assertThat(after.hash()).isEqualTo(dev.engram.Hashes.md5("I live in Lisbon"));
    assertThat(after.createdAt()).isEqualTo(before.createdAt());
    assertThat(after.updatedAt()).isAfter(before.updatedAt());
    assertThat(after.role()).isEqualTo(Role.USER);
    List<SearchHit> hits =
        memory.search(SearchRequest.builder(ALICE, "Lisbon").explain(true).build()).hits();
    assertThat(hits.get(0).memory().id()).isEqualTo(id);
    assertThat(hits.get(0).details().keywordRank()).isEqualTo(1);
    // the old text is gone from the index (the next memory's source context, the message before it,
    // still says
    // Porto: that one may match)
    List<SearchHit> old =
        memory.search(SearchRequest.builder(ALICE, "Porto").explain(true).build()).hits();
    assertThat(old)
        .filteredOn(h -> h.memory().id().equals(id))
        .allSatisfy(h -> assertThat(h.details().keywordRank()).isZero());
    assertThat(
            memory
                .search(
                    SearchRequest.builder(ALICE, "Porto")
                        .explain(true)
                        .ranking(dev.engram.Ranking.NONE)
                        .build())
                .hits())
        .allSatisfy(h -> assertThat(h.details().keywordRank()).isZero());
    assertThat(memory.history(id))
        .extracting(HistoryEntry::event, HistoryEntry::oldText, HistoryEntry::newText)
        .containsExactly(
            tuple(EventType.ADD, null, "I live in Porto"),
            tuple(EventType.UPDATE, "I live in Porto", "I live in Lisbon"));
  }

  @Test
  void updateMetadataOnlyKeepsTextAndEmbedding() {
    String id = addVerbatim(ALICE, "I live in Porto");
    MemoryItem after =
        memory.update(
            id, MemoryUpdate.metadata(Map.of("city", "Porto")).withExpiration(TODAY.plusDays(9)));

    assertThat(after.text()).isEqualTo("I live in Porto");
    assertThat(after.metadata()).isEqualTo(Map.of("city", "Porto"));
    assertThat(after.expirationDate()).isEqualTo(TODAY.plusDays(9));
    assertThat(memory.get(id)).contains(after);
    assertThat(search(ALICE, "Porto")).containsExactly(id);
    assertThat(memory.list(ListRequest.of(ALICE).withFilter(Filter.eq("city", "Porto"))).items())
        .extracting(MemoryItem::id)
        .containsExactly(id);
    assertThat(
            ids(
                memory
                    .search(
                        SearchRequest.builder(ALICE, "Porto")
                            .filter(Filter.eq("city", "Porto"))
                            .build())
                    .hits()))
        .containsExactly(id);
    assertThat(memory.history(id))
        .extracting(HistoryEntry::event, HistoryEntry::oldText, HistoryEntry::newText)
        .containsExactly(
            tuple(EventType.ADD, null, "I live in Porto"),
            tuple(EventType.UPDATE, "I live in Porto", "I live in Porto"));
    assertThatThrownBy(() -> memory.update("no-such-id", MemoryUpdate.text("x")))
        .isInstanceOf(MemoryNotFoundException.class)
        .hasMessageContaining("no-such-id");
  }

  @Test
  void deleteRemovesEverywhereButKeepsHistory() {
    String id = addVerbatim(ALICE, "my locker code is 4512");
    String other = addVerbatim(ALICE, "my bike is blue");

    memory.delete(id);

    assertThat(memory.get(id)).isEmpty();
    assertThat(search(ALICE, "locker code")).containsExactly(other);
    assertThat(memory.list(ListRequest.of(ALICE)).items())
        .extracting(MemoryItem::id)
        .containsExactly(other);
    assertThat(memory.history(id))
        .extracting(HistoryEntry::event, HistoryEntry::oldText, HistoryEntry::newText)
        .containsExactly(
            tuple(EventType.ADD, null, "my locker code is 4512"),
            tuple(EventType.DELETE, "my locker code is 4512", null));
    List<HistoryEntry> h = memory.history(id);
    assertThat(h.get(1).seq()).isGreaterThan(h.get(0).seq());
    assertThat(h.get(1).at()).isAfter(h.get(0).at());
    assertThat(h).allSatisfy(e -> assertThat(e.memoryId()).isEqualTo(id));
    assertThatThrownBy(() -> memory.delete(id)).isInstanceOf(MemoryNotFoundException.class);
    assertThat(memory.history("unknown-id")).isEmpty();
  }

  /**
   * Every history row names the path through the engine that made its change: {@code raw} for an
   * {@code infer=false} add, {@code update} and {@code delete} for direct API edits, {@code
   * delete_all} for the bulk delete of a scope, {@code expiry} for {@code purgeExpired}; the store
   * keeps it and reads it back.
   */
  @Test
  void historyNamesThePipelineOfEveryChange() {
    String edited = addVerbatim(ALICE, "I live in Porto");
    memory.update(edited, MemoryUpdate.text("I live in Lisbon"));
    memory.delete(edited);
    String bulk = addVerbatim(BOB, "bob likes chess");
    memory.deleteAll(BOB);
    String expired =
        memory
            .add(
                AddRequest.builder(ALICE)
                    .user("offer ends today")
                    .expiration(TODAY)
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    memory.purgeExpired();

    assertThat(memory.history(edited))
        .extracting(HistoryEntry::event, HistoryEntry::pipeline)
        .containsExactly(
            tuple(EventType.ADD, ChangePipelines.RAW),
            tuple(EventType.UPDATE, ChangePipelines.UPDATE),
            tuple(EventType.DELETE, ChangePipelines.DELETE));
    assertThat(memory.history(bulk))
        .extracting(HistoryEntry::pipeline)
        .containsExactly(ChangePipelines.RAW, ChangePipelines.DELETE_ALL);
    assertThat(memory.history(expired))
        .extracting(HistoryEntry::pipeline)
        .containsExactly(ChangePipelines.RAW, ChangePipelines.EXPIRY);
  }

  @Test
  void deleteAllTouchesOnlyThatScope() {
    addVerbatim(ALICE, "alice one");
    addVerbatim(ALICE, "alice two");
    String planner = addVerbatim(ALICE.withAgent("planner"), "alice with the planner");
    String bob = addVerbatim(BOB, "bob one");
    String acme =
        memory
            .forTenant("acme")
            .add(AddRequest.builder(ALICE).user("alice at acme").infer(false).build())
            .events()
            .get(0)
            .id();

    assertThat(memory.deleteAll(ALICE.withAgent("planner"))).isEqualTo(1);
    assertThat(memory.get(planner)).isEmpty();
    assertThat(memory.deleteAll(ALICE)).isEqualTo(2);
    assertThat(total(ALICE)).isZero();
    assertThat(search(ALICE, "alice")).isEmpty();
    assertThat(search(BOB, "bob")).containsExactly(bob);
    assertThat(memory.forTenant("acme").get(acme)).isPresent();
    assertThat(memory.deleteAll(ALICE)).isZero();
  }

  @Test
  void resetClearsOnlyThisTenant() {
    String id = addVerbatim(ALICE, "default tenant memory");
    addVerbatim(BOB, "another default tenant memory");
    Memory acme = memory.forTenant("acme");
    String kept =
        acme.add(AddRequest.builder(ALICE).user("acme tenant memory").infer(false).build())
            .events()
            .get(0)
            .id();

    memory.reset();

    assertThat(total(ALICE)).isZero();
    assertThat(total(BOB)).isZero();
    assertThat(memory.get(id)).isEmpty();
    assertThat(memory.history(id)).isEmpty();
    assertThat(search(ALICE, "memory")).isEmpty();
    assertThat(ids(acme.search(SearchRequest.builder(ALICE, "memory").build()).hits()))
        .containsExactly(kept);
    assertThat(acme.history(kept)).hasSize(1);
    String again = addVerbatim(ALICE, "default tenant memory");
    assertThat(search(ALICE, "memory")).containsExactly(again);
  }

  @Test
  void purgeExpiredDeletesOnlyExpiredMemories() {
    String expired =
        memory
            .add(
                AddRequest.builder(ALICE)
                    .user("offer ends today")
                    .expiration(TODAY)
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    memory.add(
        AddRequest.builder(BOB)
            .user("offer ended last week")
            .expiration(TODAY.minusDays(7))
            .infer(false)
            .build());
    String live =
        memory
            .add(
                AddRequest.builder(ALICE)
                    .user("offer ends tomorrow")
                    .expiration(TODAY.plusDays(1))
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    String acme =
        memory
            .forTenant("acme")
            .add(
                AddRequest.builder(ALICE).user("acme offer").expiration(TODAY).infer(false).build())
            .events()
            .get(0)
            .id();

    assertThat(memory.purgeExpired()).isEqualTo(2);

    assertThat(memory.list(ListRequest.of(ALICE).withIncludeExpired(true)).items())
        .extracting(MemoryItem::id)
        .containsExactly(live);
    assertThat(total(BOB)).isZero();
    assertThat(memory.history(expired))
        .extracting(HistoryEntry::event)
        .containsExactly(EventType.ADD, EventType.DELETE);
    assertThat(memory.forTenant("acme").get(acme)).isPresent();
    assertThat(memory.purgeExpired()).isZero();
  }

  @Test
  void asyncVariantsComplete() throws Exception {
    CompletableFuture<AddResult> added =
        memory.addAsync(AddRequest.builder(ALICE).user("async memory").infer(false).build());
    MemoryEvent e = added.get().events().get(0);
    assertThat(e.event()).isEqualTo(EventType.ADD);
    CompletableFuture<SearchResult> found =
        memory.searchAsync(SearchRequest.builder(ALICE, "async").build());
    assertThat(ids(found.get().hits())).containsExactly(e.id());
    CompletableFuture<AddResult> bad =
        memory.addAsync(AddRequest.builder(ALICE).user(" ").infer(false).build());
    assertThatThrownBy(bad::get).hasCauseInstanceOf(dev.engram.ValidationException.class);
    assertThat(total(ALICE)).isEqualTo(1);
  }
}

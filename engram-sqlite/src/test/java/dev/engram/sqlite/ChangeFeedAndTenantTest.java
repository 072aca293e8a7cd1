package dev.engram.sqlite;

import static dev.engram.sqlite.Memories.T0;
import static dev.engram.sqlite.Memories.memory;
import static dev.engram.sqlite.SqliteMemoryStoreTest.TODAY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangePipelines;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.spi.ChangeSet;
import dev.engram.spi.MemoryChange;
import dev.engram.spi.MemoryStore.Change;
import dev.engram.spi.StoredMemory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The change feed, reset and generation, and that no read ever shows another tenant's rows. */
class ChangeFeedAndTenantTest extends SqliteStoreTestCase {
  private List<Change> changesSince(long seq) {
    List<Change> out = new ArrayList<>();
    store.changesSince(seq, out::add);
    return out;
  }

  private static String describe(Change c) {
    return c.seq()
        + " "
        + c.tenant()
        + "/"
        + c.memoryId()
        + " "
        + (c.current() == null ? "gone" : c.current().item().text());
  }

  @Test
  void theFeedListsEachChangedMemoryOnceInOrderOfItsLatestChange() {
    StoredMemory a = memory().id("a").text("a1").stored();
    StoredMemory b = memory().id("b").text("b1").stored();
    SqliteMemoryStoreTest.add(store, a, b); // seq 1, 2
    StoredMemory a2 =
        new StoredMemory(
            "t1", a.item().withContent("a2", Map.of(), null, T0.plusSeconds(5)), a.embedding());
    store.apply(
        ChangeSet.of(
            "t1", List.of(MemoryChange.update(a2, "a1", ChangePipelines.UPDATE)))); // seq 3
    store.apply(
        ChangeSet.of(
            "t1",
            List.of(
                MemoryChange.delete(
                    b, ChangePipelines.DELETE, SqliteMemoryStoreTest.DELETED_AT)))); // seq 4
    SqliteMemoryStoreTest.add(store, memory().tenant("t2").id("c").text("c1").stored()); // seq 5

    assertThat(changesSince(0))
        .extracting(ChangeFeedAndTenantTest::describe)
        .containsExactly("3 t1/a a2", "4 t1/b gone", "5 t2/c c1");
    assertThat(changesSince(3))
        .extracting(ChangeFeedAndTenantTest::describe)
        .containsExactly("4 t1/b gone", "5 t2/c c1");
    assertThat(changesSince(5)).isEmpty();
    Change first = changesSince(2).get(0);
    assertThat(first.current().item()).isEqualTo(a2.item());
    assertThat(first.current().embedding()).containsExactly(a.embedding());
  }

  @Test
  void aVisitorMayReadTheStoreWhileTheFeedStreams() {
    for (int i = 0; i < 30; i++) {
      SqliteMemoryStoreTest.add(store, memory().id("m" + i).stored());
    }
    List<Long> counts = new ArrayList<>();
    store.changesSince(
        0, c -> counts.add(store.count() + store.getAll("t1", List.of(c.memoryId())).size()));
    List<Integer> sizes = new ArrayList<>();
    store.forEach(m -> sizes.add(store.history("t1", m.id()).size()));
    assertThat(counts).hasSize(30).containsOnly(31L);
    assertThat(sizes).hasSize(30).containsOnly(1);
  }

  @Test
  void resetDeletesOneTenantAndBumpsTheGeneration() {
    StoredMemory mine = memory().id("same-id").text("mine").stored();
    StoredMemory theirs = memory().tenant("t2").id("same-id").text("theirs").stored();
    SqliteMemoryStoreTest.add(store, mine);
    SqliteMemoryStoreTest.add(store, theirs);
    appendWindow("t1", "hello from t1");
    appendWindow("t2", "hello from t2");
    long last = store.lastSeq();

    assertThat(store.generation()).isZero();
    store.reset("t1");

    assertThat(store.generation()).isEqualTo(1);
    assertThat(store.lastSeq()).isEqualTo(last);
    assertThat(store.get("t1", "same-id")).isEmpty();
    assertThat(store.history("t1", "same-id")).isEmpty();
    assertThat(store.recentMessages("t1", Scope.user("alice"), 10)).isEmpty();
    assertThat(store.get("t2", "same-id").orElseThrow().item().text()).isEqualTo("theirs");
    assertThat(store.history("t2", "same-id")).hasSize(1);
    assertThat(store.recentMessages("t2", Scope.user("alice"), 10))
        .extracting(Message::content)
        .containsExactly("hello from t2");
    assertThat(changesSince(0))
        .extracting(ChangeFeedAndTenantTest::describe)
        .containsExactly("2 t2/same-id theirs");
    assertThat(store.count()).isEqualTo(1);

    SqliteMemoryStoreTest.add(store, memory().id("new").stored());
    assertThat(store.lastSeq()).isEqualTo(last + 1);
    store.reset("nobody");
    assertThat(store.generation()).isEqualTo(2);
  }

  @Test
  void noReadShowsAnotherTenantsMemories() {
    StoredMemory mine = memory().id("shared").text("mine").expires(TODAY.minusDays(1)).stored();
    StoredMemory theirs =
        memory().tenant("t2").id("shared").text("theirs").expires(TODAY.minusDays(1)).stored();
    StoredMemory onlyTheirs = memory().tenant("t2").id("only-t2").text("mine").stored();
    SqliteMemoryStoreTest.add(store, mine);
    SqliteMemoryStoreTest.add(store, theirs, onlyTheirs);
    appendWindow("t2", "secret");

    assertThat(store.get("t1", "shared").orElseThrow().item().text()).isEqualTo("mine");
    assertThat(store.get("t1", "only-t2")).isEmpty();
    assertThat(store.getAll("t1", List.of("shared", "only-t2")))
        .extracting(m -> m.item().text())
        .containsExactly("mine");
    assertThat(store.findByHash("t1", Scope.user("alice"), mine.item().hash()))
        .extracting(MemoryItem::id)
        .containsExactly("shared");
    ListRequest all =
        ListRequest.of(Scope.user("alice"))
            .withIncludeExpired(true)
            .withFilter(Filter.eq("memory", "mine"));
    assertThat(store.list("t1", all, TODAY).items())
        .extracting(MemoryItem::id)
        .containsExactly("shared");
    assertThat(store.list("t3", all, TODAY).total()).isZero();
    assertThat(store.history("t1", "only-t2")).isEmpty();
    assertThat(store.history("t1", "shared")).hasSize(1);
    assertThat(store.expiredIds("t1", TODAY, 10)).containsExactly("shared");
    assertThat(store.recentMessages("t1", Scope.user("alice"), 10)).isEmpty();
  }

  private void appendWindow(String tenant, String content) {
    store.apply(
        new ChangeSet(
            tenant,
            List.of(),
            List.of(
                new ChangeSet.WindowAppend(
                    Scope.user("alice"),
                    List.of(new Message(Role.USER, content, null, null, null)),
                    10))));
  }
}

package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Scope;
import org.junit.jupiter.api.Test;

class SummaryTest extends SqliteStoreTestCase {
  @Test
  void summariesArePerTenantAndScopeReplacedAndReset() {
    Scope alice = Scope.user("alice");
    assertThat(store.summary("t1", alice)).isEmpty();
    store.saveSummary("t1", alice, "Alice lives in Lisbon.");
    store.saveSummary("t1", alice, "Alice lives in Porto.");
    store.saveSummary("t1", Scope.of("alice", "bot", null), "Alice talks to bot.");
    store.saveSummary("t2", alice, "Other tenant.");
    assertThat(store.summary("t1", alice)).contains("Alice lives in Porto.");
    assertThat(store.summary("t1", Scope.of("alice", "bot", null))).contains("Alice talks to bot.");
    assertThat(store.summary("t2", alice)).contains("Other tenant.");
    store.reset("t1");
    assertThat(store.summary("t1", alice)).isEmpty();
    assertThat(store.summary("t2", alice)).contains("Other tenant.");
    store.close();
    store = SqliteMemoryStoreTest.open(dir);
    assertThat(store.summary("t2", alice)).contains("Other tenant.");
  }
}

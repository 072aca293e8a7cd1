package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.ListRequest;
import dev.engram.MemoryUpdate;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.Tenants;
import dev.engram.TextTooLongException;
import dev.engram.ValidationException;
import dev.engram.filter.Mem0Filters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Contract: bad input is rejected with a {@link ValidationException} that names the field, and
 * nothing is written (no memory, no history, no sequence number, no window message).
 */
public abstract class ValidationContract extends ChangeContract {
  private String existing;

  /** What the store holds; compared before and after every rejected call. */
  private record Snapshot(long memories, long lastSeq, long alice, int window) {}

  /**
   * Every test starts with one memory, so that "nothing written" is checked against a non-empty
   * store.
   */
  private void addExistingMemory() {
    existing = addVerbatim(ALICE, "an existing memory");
  }

  private Snapshot snapshot() {
    return new Snapshot(
        storedCount(),
        storage.records().lastSeq(),
        total(ALICE),
        storage.records().recentMessages(Tenants.DEFAULT, ALICE, 100).size());
  }

  private void assertRejected(String field, ThrowingCallable call) {
    Snapshot before = snapshot();
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            ValidationException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).startsWith(field + ": ");
            });
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  void badScopesAreRejected() {
    addExistingMemory();
    assertRejected("scope", () -> Scope.of(null, null, null));
    assertRejected("user_id", () -> Scope.user(""));
    assertRejected("user_id", () -> Scope.user("   "));
    assertRejected(
        "user_id", () -> memory.add(AddRequest.builder(Scope.user("al ice")).user("hi").build()));
    assertRejected("agent_id", () -> Scope.agent("agent\t7"));
    assertRejected("run_id", () -> ALICE.withRun("run 1"));
    assertRejected("user_id", () -> Scope.user("u".repeat(Scope.MAX_ID_LENGTH + 1)));
    assertRejected("tenant", () -> memory.forTenant("a tenant"));
    assertThatThrownBy(() -> Scope.user("al ice")).hasMessageContaining("'al ice'");
  }

  @Test
  void badMessagesAreRejected() {
    addExistingMemory();
    assertRejected("messages", () -> AddRequest.builder(ALICE).build());
    assertRejected(
        "messages[1].content",
        () ->
            memory.add(
                AddRequest.builder(ALICE).user("this is fine").user("   ").infer(false).build()));
    assertRejected(
        "messages[0].content", () -> memory.add(AddRequest.builder(ALICE).user("").build()));
    String oversized = "x".repeat(1_048_577);
    assertRejected(
        "messages[0].content",
        () -> memory.add(AddRequest.builder(ALICE).user(oversized).infer(false).build()));
    assertThatThrownBy(() -> memory.add(AddRequest.builder(ALICE).user(oversized).build()))
        .isInstanceOf(TextTooLongException.class)
        .hasMessageContaining("1048577")
        .hasMessageContaining("the limit is 1048576");
    List<Message> many = new ArrayList<>();
    for (int i = 0; i < 1001; i++) {
      many.add(Message.user("message " + i));
    }
    assertRejected(
        "messages",
        () -> memory.add(AddRequest.builder(ALICE).messages(many).infer(false).build()));
    assertRejected(
        "messages[0].content",
        () ->
            memory.addBatch(
                List.of(
                    AddRequest.builder(ALICE).user("would be fine alone").infer(false).build(),
                    AddRequest.builder(BOB).user(oversized).infer(false).build())));
    assertThat(total(BOB)).isZero();
  }

  @Test
  void badMetadataIsRejected() {
    addExistingMemory();
    assertRejected(
        "metadata.user_id",
        () ->
            memory.add(
                AddRequest.builder(ALICE)
                    .user("hello")
                    .metadata(Map.of("user_id", "mallory"))
                    .infer(false)
                    .build()));
    assertRejected(
        "metadata.actor_id",
        () ->
            memory.add(
                AddRequest.builder(ALICE)
                    .user("hello")
                    .metadata(Map.of("actor_id", "mallory"))
                    .build()));
    assertRejected(
        "metadata.agent_id",
        () -> memory.update(existing, MemoryUpdate.metadata(Map.of("agent_id", "x"))));
    assertRejected(
        "metadata.when", () -> AddRequest.builder(ALICE).metadata(Map.of("when", Instant.EPOCH)));
    assertRejected(
        "metadata.score", () -> AddRequest.builder(ALICE).metadata(Map.of("score", Double.NaN)));
  }

  @Test
  void badFiltersAreRejected() {
    addExistingMemory();
    assertRejected("filters.age", () -> Mem0Filters.parse("{\"age\": {\"between\": [1, 2]}}"));
    assertThatThrownBy(() -> Mem0Filters.parse("{\"age\": {\"between\": [1, 2]}}"))
        .hasMessageContaining("'between'");
    assertRejected("filters", () -> Mem0Filters.parse("{\"age\": "));
    assertRejected("filters", () -> Mem0Filters.parse("[1, 2]"));
    assertRejected("filters.OR", () -> Mem0Filters.parse("{\"OR\": []}"));
    assertRejected(
        "filters.created_at", () -> Mem0Filters.parse("{\"created_at\": {\"gt\": \"yesterday\"}}"));
    assertRejected("filters.topic", () -> Mem0Filters.parse("{\"topic\": {\"in\": []}}"));
  }

  @Test
  void badSearchAndListRequestsAreRejected() {
    addExistingMemory();
    assertRejected(
        "top_k", () -> memory.search(SearchRequest.builder(ALICE, "memory").topK(0).build()));
    assertRejected(
        "top_k",
        () -> SearchRequest.builder(ALICE, "memory").topK(SearchRequest.MAX_TOP_K + 1).build());
    assertRejected(
        "threshold", () -> SearchRequest.builder(ALICE, "memory").threshold(1.5).build());
    assertRejected(
        "threshold", () -> SearchRequest.builder(ALICE, "memory").threshold(-0.1).build());
    assertRejected("max_tokens", () -> SearchRequest.builder(ALICE, "memory").maxTokens(0).build());
    assertRejected("query", () -> SearchRequest.builder(ALICE, "   ").build());
    assertRejected("query", () -> SearchRequest.builder(ALICE, null).build());
    assertRejected("limit", () -> ListRequest.of(ALICE).withPage(0, 0));
    assertRejected("offset", () -> ListRequest.of(ALICE).withPage(-1, 10));
  }

  @Test
  void badIdsAndUpdatesAreRejected() {
    addExistingMemory();
    assertRejected("memory_id", () -> memory.get("  "));
    assertRejected("memory_id", () -> memory.delete(""));
    assertRejected("memory_id", () -> memory.history(" "));
    assertRejected("memory_id", () -> memory.update("x".repeat(65), MemoryUpdate.text("new text")));
    assertRejected("memory_id", () -> memory.delete("00000000-0000-0000-0000-000000000000"));
    assertRejected("text", () -> memory.update(existing, MemoryUpdate.text("  ")));
    assertRejected("text", () -> memory.update(existing, MemoryUpdate.text("y".repeat(1_048_577))));
    assertRejected("update", () -> memory.update(existing, MemoryUpdate.text(null)));
    assertThat(memory.get(existing).orElseThrow().text()).isEqualTo("an existing memory");
    assertThat(memory.history(existing)).hasSize(1);
  }
}

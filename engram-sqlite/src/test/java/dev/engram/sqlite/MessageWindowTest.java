package dev.engram.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.spi.ChangeSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The per-scope message window: appended in order, trimmed to the newest {@code keep}, read oldest
 * first.
 */
class MessageWindowTest extends SqliteStoreTestCase {
  static final Scope ALICE = Scope.user("alice");
  static final Scope ALICE_BOT = Scope.of("alice", "bot", null);

  private void append(String tenant, Scope scope, int keep, String... contents) {
    List<Message> messages = new ArrayList<>();
    for (String c : contents) {
      messages.add(Message.user(c));
    }
    store.apply(
        new ChangeSet(
            tenant, List.of(), List.of(new ChangeSet.WindowAppend(scope, messages, keep))));
  }

  private List<String> window(String tenant, Scope scope, int limit) {
    return store.recentMessages(tenant, scope, limit).stream().map(Message::content).toList();
  }

  @Test
  void messagesRoundTripWithEveryField() {
    Message full =
        new Message(
            Role.ASSISTANT,
            "Sure, \"tea\" it is.",
            "Melanie",
            Instant.parse("2023-05-08T13:56:00.000000123Z"),
            "D1:2");
    Message bare = new Message(Role.SYSTEM, "be brief", null, null, null);
    store.apply(
        new ChangeSet(
            "t1", List.of(), List.of(new ChangeSet.WindowAppend(ALICE, List.of(full, bare), 5))));

    assertThat(store.recentMessages("t1", ALICE, 5)).containsExactly(full, bare);
  }

  @Test
  void theWindowKeepsTheNewestMessagesAndReadsOldestFirst() {
    append("t1", ALICE, 3, "m1", "m2");
    append("t1", ALICE, 3, "m3", "m4");

    assertThat(window("t1", ALICE, 10)).containsExactly("m2", "m3", "m4");
    assertThat(window("t1", ALICE, 2)).containsExactly("m3", "m4");
    assertThat(window("t1", ALICE, 0)).isEmpty();

    append("t1", ALICE, 5, "m5", "m6", "m7", "m8", "m9", "m10", "m11");
    assertThat(window("t1", ALICE, 10)).containsExactly("m7", "m8", "m9", "m10", "m11");

    append("t1", ALICE, 1);
    assertThat(window("t1", ALICE, 10)).containsExactly("m11");
  }

  @Test
  void windowsAreSeparatePerScopeAndTenant() {
    append("t1", ALICE, 2, "a1", "a2", "a3");
    append("t1", ALICE_BOT, 2, "b1");
    append("t2", ALICE, 2, "other");
    store.apply(
        new ChangeSet(
            "t1",
            List.of(),
            List.of(
                new ChangeSet.WindowAppend(ALICE, List.of(Message.user("a4")), 2),
                new ChangeSet.WindowAppend(
                    ALICE_BOT, List.of(Message.user("b2"), Message.user("b3")), 10))));

    assertThat(window("t1", ALICE, 10)).containsExactly("a3", "a4");
    assertThat(window("t1", ALICE_BOT, 10)).containsExactly("b1", "b2", "b3");
    assertThat(window("t2", ALICE, 10)).containsExactly("other");
    assertThat(window("t1", Scope.agent("bot"), 10)).isEmpty();
  }
}

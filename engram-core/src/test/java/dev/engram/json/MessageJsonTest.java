package dev.engram.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Message;
import dev.engram.Role;
import dev.engram.ValidationException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageJsonTest {

  @Test
  void parsesEveryKey() {
    Message m =
        MessageJson.parse(
            "{\"role\":\"user\",\"content\":\"I moved to Lisbon\",\"name\":\"Alice\","
                + "\"timestamp\":\"2024-05-01T12:00:00+02:00\",\"source_id\":\"D1:3\",\"user_id\":\"ignored\"}");
    assertThat(m)
        .isEqualTo(
            new Message(
                Role.USER,
                "I moved to Lisbon",
                "Alice",
                Instant.parse("2024-05-01T10:00:00Z"),
                "D1:3"));
  }

  @Test
  void optionalKeysMayBeAbsentOrNullAndTimestampMayBeEpochSeconds() {
    assertThat(MessageJson.parse("{\"role\":\"Assistant\",\"content\":\"ok\"}"))
        .isEqualTo(Message.assistant("ok"));
    assertThat(
            MessageJson.parse(
                "{\"role\":\"user\",\"content\":\"x\",\"name\":null,\"timestamp\":1714557600,"
                    + "\"source_id\":42}"))
        .isEqualTo(new Message(Role.USER, "x", null, Instant.parse("2024-05-01T10:00:00Z"), "42"));
    assertThat(
            MessageJson.parse("{\"role\":\"user\",\"content\":\"x\",\"timestamp\":\"2024-05-01\"}")
                .timestamp())
        .isEqualTo(Instant.parse("2024-05-01T00:00:00Z"));
  }

  @Test
  void writeIsTheInverseOfParse() {
    Message m = new Message(Role.USER, "hi", "Bob", Instant.parse("2024-05-01T10:00:00Z"), "D2:1");
    assertThat(MemoryJson.write(MessageJson.write(m)))
        .isEqualTo(
            "{\"role\":\"user\",\"content\":\"hi\","
                + "\"name\":\"Bob\",\"timestamp\":\"2024-05-01T10:00:00Z\",\"source_id\":\"D2:1\"}");
    assertThat(MessageJson.parse(MemoryJson.write(MessageJson.write(m)))).isEqualTo(m);
  }

  @Test
  void parsesAListOrASingleObject() {
    List<Message> list =
        MessageJson.parseList(
            "messages",
            JsonInput.tree(
                "messages",
                "[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"assistant\",\"content\":\"b\"}]"));
    assertThat(list).containsExactly(Message.user("a"), Message.assistant("b"));
    assertThat(
            MessageJson.parseList(
                "messages", JsonInput.tree("messages", "{\"role\":\"user\",\"content\":\"a\"}")))
        .containsExactly(Message.user("a"));
  }

  @Test
  void rejectsBadMessagesNamingFieldAndValue() {
    assertRejected("{\"content\":\"x\"}", "message.role: is required");
    assertRejected(
        "{\"role\":\"boss\",\"content\":\"x\"}",
        "message.role: unknown role 'boss' (expected system, user, assistant or tool)");
    assertRejected("{\"role\":\"user\"}", "message.content: is required");
    assertRejected("{\"role\":\"user\",\"content\":\"  \"}", "message.content: must not be empty");
    assertRejected(
        "{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}",
        "message.content: must be a string, got [{\"type\":\"text\"}]");
    assertRejected(
        "{\"role\":\"user\",\"content\":\"x\",\"name\":7}",
        "message.name: must be a string, got 7");
    assertRejected(
        "{\"role\":\"user\",\"content\":\"x\",\"timestamp\":\"yesterday\"}",
        "message.timestamp: 'yesterday' is not an ISO-8601 date or date-time"
            + " (for example 2024-05-01T10:00:00Z or 2024-05-01)");
    assertRejected(
        "{\"role\":\"user\",\"content\":\"x\",\"timestamp\":true}",
        "message.timestamp: must be ISO-8601 text or epoch seconds, got true");
    assertRejected(
        "[1]", "message: a message must be a JSON object with role and content, got array");
    assertRejected("{\"role\":", "message: malformed JSON: ");
    assertThatThrownBy(() -> MessageJson.parseList("messages", JsonInput.tree("messages", "[]")))
        .isInstanceOf(ValidationException.class)
        .hasMessage("messages: at least one message is required");
    assertThatThrownBy(
            () ->
                MessageJson.parseList(
                    "messages",
                    JsonInput.tree(
                        "messages", "[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"user\"}]")))
        .isInstanceOf(ValidationException.class)
        .hasMessage("messages[1].content: is required");
  }

  private static void assertRejected(String json, String messagePrefix) {
    assertThatThrownBy(() -> MessageJson.parse(json))
        .isInstanceOf(ValidationException.class)
        .hasMessageStartingWith(messagePrefix);
  }
}

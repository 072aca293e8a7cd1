package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import dev.engram.filter.Filter;
import dev.engram.json.MemoryJson;
import dev.engram.server.auth.KeyRole;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Long messages on a real server with the default settings: a message at the engine's limit (1 MiB
 * characters, ASCII or three UTF-8 bytes a character) is accepted and stored whole; one character
 * more is refused with 413 naming the field and the limit before any event is queued; the limit is
 * the engine's, not the server's; a body over the server's own limit is a 413 too.
 */
class LongMessageTest {
  static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");
  static final int LIMIT = Engram.Builder.DEFAULT_MAX_TEXT_LENGTH;

  @TempDir Path dir;
  ServerFixture f;

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  private void start(int maxTextLength) {
    f =
        new ServerFixture(
            dir,
            ServerSettings.builder().port(0).build(),
            new MutableClock(NOW),
            b -> maxTextLength == LIMIT ? b : b.maxTextLength(maxTextLength));
  }

  /** A text of exactly {@code length} characters, words of {@code letter}, not blank at the end. */
  static String text(int length, char letter) {
    StringBuilder s = new StringBuilder(length);
    while (s.length() < length) {
      s.append(s.length() % 8 == 7 ? ' ' : letter);
    }
    s.setCharAt(length - 1, letter);
    return s.toString();
  }

  static String addBody(String content, boolean async) {
    ObjectNode o = MemoryJson.mapper().createObjectNode();
    o.putArray("messages").addObject().put("role", "user").put("content", content);
    o.put("user_id", "alice");
    o.put("infer", false);
    o.put("async_mode", async);
    return MemoryJson.write(o);
  }

  @Test
  void aMessageAtTheDefaultLimitIsStoredAsItsPassages() {
    start(LIMIT);
    String key = f.key("acme", KeyRole.MEMBER).secret();
    String ascii = text(LIMIT, 'a');
    var accepted = f.call("POST", "/v3/memories/add/", key, addBody(ascii, true));
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);
    JsonNode e = f.awaitEvent(key, accepted.json().path("event_id").asText());
    assertThat(e.path("status").asText()).as(e.toString()).isEqualTo("SUCCEEDED");

    // Three UTF-8 bytes a character: a body of about 3 MiB, under the server's default 8 MiB.
    String euros = text(LIMIT, '€');
    var sync = f.call("POST", "/v1/memories/", key, addBody(euros, false));
    assertThat(sync.status()).as(sync.body()).isEqualTo(200);

    // each message is kept as its passages (Engram.Builder.passageTokens), in order, each the
    // message's text between its offsets, together every character but the spaces between them
    List<MemoryItem> stored = everyMemory(Scope.user("alice"));
    for (String message : List.of(ascii, euros)) {
      List<MemoryItem> passages =
          stored.stream()
              .filter(m -> m.text().charAt(0) == message.charAt(0))
              .sorted(Comparator.comparingInt(m -> offset(m, MemoryItem.PASSAGE_START)))
              .toList();
      assertThat(passages).hasSizeGreaterThan(1);
      StringBuilder joined = new StringBuilder();
      for (MemoryItem m : passages) {
        assertThat(
                message.substring(
                    offset(m, MemoryItem.PASSAGE_START), offset(m, MemoryItem.PASSAGE_END)))
            .isEqualTo(m.text());
        joined.append(m.text());
      }
      assertThat(joined.toString().replace(" ", "")).isEqualTo(message.replace(" ", ""));
    }
  }

  /** Every memory of a scope, page after page. */
  private List<MemoryItem> everyMemory(Scope scope) {
    List<MemoryItem> all = new java.util.ArrayList<>();
    while (true) {
      List<MemoryItem> page =
          f.memory
              .forTenant("acme")
              .list(new ListRequest(scope, Filter.all(), all.size(), ListRequest.MAX_LIMIT, false))
              .items();
      all.addAll(page);
      if (page.size() < ListRequest.MAX_LIMIT) {
        return all;
      }
    }
  }

  private static int offset(MemoryItem m, String key) {
    return ((Number) m.metadata().get(key)).intValue();
  }

  @Test
  void aMessageOverTheLimitIs413NamingTheFieldAndTheLimitAndQueuesNothing() {
    start(LIMIT);
    String key = f.key("acme", KeyRole.MEMBER).secret();
    for (String path : new String[] {"/v3/memories/add/", "/v1/memories/"}) {
      var refused = f.call("POST", path, key, addBody(text(LIMIT + 1, 'a'), true));
      assertThat(refused.status()).as(path + " " + refused.body()).isEqualTo(413);
      JsonNode body = refused.json();
      assertThat(body.path("detail").asText()).isEqualTo("messages[0].content");
      assertThat(body.path("error").asText())
          .contains("messages[0].content")
          .contains("is 1048577 characters long; the limit is 1048576");
      assertThat(body.path("limit").asInt()).isEqualTo(LIMIT);
      assertThat(body.path("length").asInt()).isEqualTo(LIMIT + 1);
    }
    assertThat(f.call("GET", "/v1/events/", key, null).json().path("count").asInt()).isZero();
    assertThat(f.memory.forTenant("acme").list(Scope.user("alice")).items()).isEmpty();
  }

  @Test
  void theLimitIsTheEngines() {
    start(100);
    String key = f.key("acme", KeyRole.MEMBER).secret();
    var refused = f.call("POST", "/v3/memories/add/", key, addBody(text(101, 'a'), true));
    assertThat(refused.status()).as(refused.body()).isEqualTo(413);
    assertThat(refused.json().path("error").asText()).contains("the limit is 100");
    assertThat(refused.json().path("limit").asInt()).isEqualTo(100);
    assertThat(f.call("GET", "/v1/events/", key, null).json().path("count").asInt()).isZero();
    var accepted = f.call("POST", "/v3/memories/add/", key, addBody(text(100, 'a'), false));
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);
  }

  @Test
  void aBodyOverTheServersLimitIs413() {
    start(LIMIT);
    String key = f.key("acme", KeyRole.MEMBER).secret();
    byte[] body =
        addBody(text((int) (ServerSettings.DEFAULT_MAX_BODY_BYTES + 1), 'a'), true)
            .getBytes(StandardCharsets.UTF_8);
    var refused =
        f.raw(
            "POST",
            "/v3/memories/add/",
            body,
            "Authorization",
            "Token " + key,
            "Content-Type",
            "application/json");
    assertThat(refused.status()).as(refused.body()).isEqualTo(413);
    assertThat(refused.json().path("error").asText()).contains("8388608");
    assertThat(f.call("GET", "/v1/events/", key, null).json().path("count").asInt()).isZero();
  }
}

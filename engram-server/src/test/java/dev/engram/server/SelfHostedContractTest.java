package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.server.auth.KeyRole;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mem0's self-hosted REST server surface ({@code server/main.py}): exact paths without trailing
 * slashes, {@code X-API-Key} and {@code Bearer} keys, synchronous adds and its reply messages.
 */
class SelfHostedContractTest {
  @TempDir Path dir;
  ServerFixture f;
  String member;
  String admin;
  Memory acme;

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
    member = f.key("acme", KeyRole.MEMBER).secret();
    admin = f.key("acme", KeyRole.ADMIN).secret();
    acme = f.memory.forTenant("acme");
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private ServerFixture.Response call(String method, String path, String key, String body) {
    return f.raw(
        method,
        path,
        body == null ? null : body.getBytes(StandardCharsets.UTF_8),
        "X-API-Key",
        key,
        "Content-Type",
        "application/json");
  }

  private String seed(String user, String text) {
    return acme.add(AddRequest.builder(Scope.user(user)).user(text).infer(false).build())
        .events()
        .get(0)
        .id();
  }

  @Test
  void addListGetUpdateHistoryDeleteWithMem0sMessages() {
    JsonNode added =
        call(
                "POST",
                "/memories",
                member,
                "{\"messages\": [{\"role\": \"user\", \"content\":"
                    + " \"I collect vinyl records\"}], \"user_id\": \"alice\", \"metadata\": {\"src\": \"chat\"},"
                    + " \"infer\": false, \"memory_type\": null, \"prompt\": null}")
            .json();
    String id = added.path("results").get(0).path("id").asText();
    assertThat(added.path("results").get(0).path("event").asText()).isEqualTo("ADD");
    assertThat(added.path("results").get(0).path("memory").asText())
        .isEqualTo("I collect vinyl records");

    JsonNode list = call("GET", "/memories?user_id=alice&top_k=10", member, null).json();
    assertThat(list.path("results")).hasSize(1);
    assertThat(list.path("results").get(0).path("metadata").path("src").asText()).isEqualTo("chat");

    JsonNode one = call("GET", "/memories/" + id, member, null).json();
    assertThat(one.path("id").asText()).isEqualTo(id);
    assertThat(one.path("user_id").asText()).isEqualTo("alice");
    var absent = call("GET", "/memories/no-such-id", member, null);
    assertThat(absent.status()).isEqualTo(200);
    assertThat(absent.json().isNull()).isTrue();

    JsonNode updated =
        call("PUT", "/memories/" + id, member, "{\"text\": \"I collect jazz records\"}").json();
    assertThat(updated.path("message").asText()).isEqualTo("Memory updated successfully!");
    assertThat(acme.get(id).orElseThrow().text()).isEqualTo("I collect jazz records");

    JsonNode history = call("GET", "/memories/" + id + "/history", member, null).json();
    assertThat(history).hasSize(2);
    assertThat(history.get(1).path("event").asText()).isEqualTo("UPDATE");
    assertThat(history.get(1).path("old_memory").asText()).isEqualTo("I collect vinyl records");
    assertThat(history)
        .extracting(h -> h.path("pipeline").asText())
        .containsExactly("raw", "update");

    JsonNode deleted = call("DELETE", "/memories/" + id, member, null).json();
    assertThat(deleted.path("message").asText()).isEqualTo("Memory deleted successfully");
    assertThat(call("DELETE", "/memories/" + id, member, null).status()).isEqualTo(404);
    assertThat(call("GET", "/memories/nope/history", member, null).status()).isEqualTo(404);
  }

  @Test
  void searchTakesFiltersOrDeprecatedTopLevelIds() {
    String tea = seed("alice", "Alice drinks green tea");
    seed("bob", "Bob drinks green tea");
    JsonNode r =
        call(
                "POST",
                "/search",
                member,
                "{\"query\": \"green tea\", \"filters\": {\"user_id\": \"alice\"}, \"top_k\": 5}")
            .json();
    assertThat(r.path("results")).hasSize(1);
    assertThat(r.path("results").get(0).path("id").asText()).isEqualTo(tea);
    assertThat(r.path("results").get(0).path("score").isNumber()).isTrue();
    JsonNode legacy =
        call("POST", "/search", member, "{\"query\": \"green tea\", \"user_id\": \"alice\"}")
            .json();
    assertThat(legacy.path("results").get(0).path("id").asText()).isEqualTo(tea);
    var none = call("POST", "/search", member, "{\"query\": \"green tea\"}");
    assertThat(none.status()).isEqualTo(400);
    assertThat(none.json().path("detail").asText()).isEqualTo("filters");
  }

  @Test
  void bearerKeysWorkAndTokenSchemeToo() {
    seed("alice", "x");
    var bearer = f.raw("GET", "/memories?user_id=alice", null, "Authorization", "Bearer " + member);
    assertThat(bearer.status()).isEqualTo(200);
    assertThat(bearer.json().path("results")).hasSize(1);
    assertThat(f.raw("GET", "/memories?user_id=alice", null).status()).isEqualTo(401);
    assertThat(f.raw("GET", "/memories?user_id=alice", null, "Authorization", "Basic abc").status())
        .isEqualTo(401);
  }

  @Test
  void listRequiresAScopeAndValidatesTopK() {
    var none = call("GET", "/memories", member, null);
    assertThat(none.status()).isEqualTo(400);
    assertThat(none.json().path("detail").asText()).isEqualTo("user_id");
    var topK = call("GET", "/memories?user_id=a&top_k=5000", member, null);
    assertThat(topK.status()).isEqualTo(400);
    assertThat(topK.json().path("detail").asText()).isEqualTo("top_k");
    var expired = call("GET", "/memories?user_id=a&show_expired=maybe", member, null);
    assertThat(expired.status()).isEqualTo(400);
    assertThat(expired.json().path("detail").asText()).isEqualTo("show_expired");
  }

  @Test
  void deleteAllResetAndEntityDeleteAreAdminOnly() {
    seed("alice", "a1");
    seed("alice", "a2");
    String bob = seed("bob", "b1");
    seed("carol", "c1");
    assertThat(call("DELETE", "/memories?user_id=alice", member, null).status()).isEqualTo(403);
    assertThat(call("POST", "/reset", member, null).status()).isEqualTo(403);
    assertThat(call("DELETE", "/entities/user/bob", member, null).status()).isEqualTo(403);
    assertThat(acme.entities()).hasSize(3);

    JsonNode entities = call("GET", "/entities", member, null).json();
    assertThat(entities.isArray()).isTrue();
    assertThat(entities).hasSize(3);
    JsonNode alice = entities.get(0);
    assertThat(alice.path("id").asText()).isEqualTo("alice");
    assertThat(alice.path("type").asText()).isEqualTo("user");
    assertThat(alice.path("total_memories").asInt()).isEqualTo(2);
    assertThat(alice.path("created_at").isTextual()).isTrue();

    assertThat(
            call("DELETE", "/memories?user_id=alice", admin, null).json().path("message").asText())
        .isEqualTo("All relevant memories deleted");
    assertThat(call("DELETE", "/entities/user/carol", admin, null).json().path("message").asText())
        .isEqualTo("Entity deleted");
    assertThat(acme.entities()).extracting(dev.engram.EntitySummary::id).containsExactly("bob");
    assertThat(call("DELETE", "/entities/team/x", admin, null).json().path("detail").asText())
        .isEqualTo("entity_type");

    assertThat(call("POST", "/reset", admin, null).json().path("message").asText())
        .isEqualTo("All memories reset");
    assertThat(acme.get(bob)).isEmpty();
    assertThat(acme.entities()).isEmpty();
  }
}

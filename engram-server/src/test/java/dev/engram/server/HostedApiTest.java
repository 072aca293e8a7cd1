package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.server.auth.KeyRole;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hosted routes end to end on a real server and real embedded storage. */
class HostedApiTest {
  @TempDir Path dir;
  ServerFixture f;
  String key;

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
    key = f.key("acme", KeyRole.ADMIN).secret();
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void pingNamesTheTenant() {
    JsonNode ping = f.call("GET", "/v1/ping/", key, null).json();
    assertThat(ping.path("status").asText()).isEqualTo("ok");
    assertThat(ping.path("org_id").asText()).isEqualTo("acme");
  }

  @Test
  void asyncAddThenSearchListGetUpdateHistoryDelete() {
    var accepted =
        f.call(
            "POST",
            "/v3/memories/add/",
            key,
            "{\"messages\": [{\"role\": \"user\", \"content\": \"I adopted a puppy called Max\"}],"
                + " \"user_id\": \"alice\", \"infer\": false, \"metadata\": {\"topic\": \"pets\"}}");
    assertThat(accepted.status()).isEqualTo(200);
    assertThat(accepted.json().path("status").asText()).isEqualTo("PENDING");
    JsonNode event = f.awaitEvent(key, accepted.json().path("event_id").asText());
    assertThat(event.path("status").asText()).isEqualTo("SUCCEEDED");
    String id = event.path("results").get(0).path("id").asText();
    assertThat(event.path("results").get(0).path("data").path("memory").asText())
        .isEqualTo("I adopted a puppy called Max");

    JsonNode hits =
        f.call(
                "POST",
                "/v3/memories/search/",
                key,
                "{\"query\": \"puppy\", \"filters\": {\"AND\": [{\"user_id\": \"alice\"}, {\"metadata\": {\"topic\": \"pets\"}}]}}")
            .json();
    assertThat(hits.path("results").get(0).path("id").asText()).isEqualTo(id);
    assertThat(hits.path("results").get(0).path("event_time").asText()).isNotEmpty();

    JsonNode page =
        f.call(
                "POST",
                "/v3/memories/?page=1&page_size=10",
                key,
                "{\"filters\": {\"user_id\": \"alice\"}}")
            .json();
    assertThat(page.path("count").asLong()).isEqualTo(1);
    assertThat(page.path("next").isNull()).isTrue();

    assertThat(f.call("GET", "/v1/memories/" + id + "/", key, null).json().path("memory").asText())
        .isEqualTo("I adopted a puppy called Max");
    JsonNode updated =
        f.call("PUT", "/v1/memories/" + id + "/", key, "{\"text\": \"Alice has a dog called Max\"}")
            .json();
    assertThat(updated.path("memory").asText()).isEqualTo("Alice has a dog called Max");
    JsonNode history = f.call("GET", "/v1/memories/" + id + "/history/", key, null).json();
    assertThat(history).hasSize(2);
    assertThat(history.get(1).path("event").asText()).isEqualTo("UPDATE");
    assertThat(f.call("DELETE", "/v1/memories/" + id + "/", key, null).status()).isEqualTo(200);
    assertThat(f.call("GET", "/v1/memories/" + id + "/", key, null).status()).isEqualTo(404);
  }

  @Test
  void errorsAreJsonAndNameTheField() {
    var r = f.call("POST", "/v3/memories/search/", key, "{\"query\": \"x\", \"filters\": {}}");
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().path("detail").asText()).isEqualTo("filters");
    assertThat(f.call("POST", "/v3/memories/search/", null, "{}").status()).isEqualTo(401);
    assertThat(f.call("GET", "/nope", key, null).json().path("error").asText())
        .contains("no route");
    assertThat(f.call("PATCH", "/v1/ping/", key, null).status()).isEqualTo(405);
    var broken = f.call("POST", "/v3/memories/add/", key, "{\"messages\": [");
    assertThat(broken.status()).isEqualTo(400);
    assertThat(broken.json().path("error").asText()).contains("malformed JSON");
  }
}

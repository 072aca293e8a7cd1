package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.server.auth.KeyRole;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The legacy v1/v2 platform routes that older mem0 clients (Python 1.0 and before) still call. */
class LegacyContractTest {
  @TempDir Path dir;
  ServerFixture f;
  String key;
  Memory acme;

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
    key = f.key("acme", KeyRole.MEMBER).secret();
    acme = f.memory.forTenant("acme");
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private String seed(String user, String text, Map<String, Object> metadata) {
    return acme.add(
            AddRequest.builder(Scope.user(user)).user(text).infer(false).metadata(metadata).build())
        .events()
        .get(0)
        .id();
  }

  @Test
  void v1AddIsSynchronousAndAnswersTheAddResult() {
    JsonNode r =
        f.call(
                "POST",
                "/v1/memories/",
                key,
                "{\"messages\": [{\"role\": \"user\", \"content\":"
                    + " \"I play chess on Sundays\"}], \"user_id\": \"alice\", \"metadata\": {\"k\": 1}, \"infer\": false}")
            .json();
    JsonNode ev = r.path("results").get(0);
    assertThat(ev.path("event").asText()).isEqualTo("ADD");
    assertThat(ev.path("memory").asText()).isEqualTo("I play chess on Sundays");
    assertThat(acme.get(ev.path("id").asText()).orElseThrow().metadata()).containsEntry("k", 1);
    var noScope = f.call("POST", "/v1/memories/", key, "{\"messages\": \"x\"}");
    assertThat(noScope.status()).isEqualTo(400);
    assertThat(noScope.json().path("detail").asText()).isEqualTo("user_id");
    var app =
        f.call(
            "POST",
            "/v1/memories/",
            key,
            "{\"messages\": \"x\", \"user_id\": \"a\", \"app_id\": \"y\"}");
    assertThat(app.status()).isEqualTo(400);
    assertThat(app.json().path("detail").asText()).isEqualTo("app_id");
    var noMessages = f.call("POST", "/v1/memories/", key, "{\"user_id\": \"a\"}");
    assertThat(noMessages.status()).isEqualTo(400);
    assertThat(noMessages.json().path("detail").asText()).isEqualTo("messages");
  }

  @Test
  void v1ListingTakesTheScopeAndPagesFromTheQuery() {
    for (int i = 0; i < 3; i++) {
      seed("alice", "a" + i, Map.of());
    }
    seed("bob", "b", Map.of());
    JsonNode p = f.call("GET", "/v1/memories/?user_id=alice&page=1&page_size=2", key, null).json();
    assertThat(p.path("count").asInt()).isEqualTo(3);
    assertThat(p.path("results")).hasSize(2);
    assertThat(p.path("next").asText()).endsWith("/v1/memories/?page=2&page_size=2");
    JsonNode limit = f.call("GET", "/v1/memories/?user_id=alice&limit=1", key, null).json();
    assertThat(limit.path("results")).hasSize(1);
    JsonNode all = f.call("GET", "/v1/memories/?user_id=alice", key, null).json();
    all.path("results").forEach(m -> assertThat(m.path("user_id").asText()).isEqualTo("alice"));
    assertThat(f.call("GET", "/v1/memories/", key, null).status()).isEqualTo(400);
  }

  @Test
  void v1SearchTakesTopLevelIdsAndAnswersABareList() {
    String tea = seed("alice", "Alice drinks green tea", Map.of("k", "v"));
    seed("bob", "Bob drinks green tea too", Map.of());
    JsonNode r =
        f.call(
                "POST",
                "/v1/memories/search/",
                key,
                "{\"query\": \"green tea\", \"user_id\": \"alice\", \"limit\": 5}")
            .json();
    assertThat(r.isArray()).isTrue();
    assertThat(r).hasSize(1);
    assertThat(r.get(0).path("id").asText()).isEqualTo(tea);
    assertThat(r.get(0).path("score").isNumber()).isTrue();
    JsonNode filtered =
        f.call(
                "POST",
                "/v1/memories/search/",
                key,
                "{\"query\": \"green tea\", \"user_id\": \"alice\", \"filters\": {\"k\": \"other\"}}")
            .json();
    assertThat(filtered).isEmpty();
    var bad = f.call("POST", "/v1/memories/search/", key, "{\"query\": \"tea\", \"user_id\": 7}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().path("detail").asText()).isEqualTo("user_id");
  }

  @Test
  void v2SearchAndListingTakeFilters() {
    String tea = seed("alice", "Alice drinks green tea", Map.of());
    seed("bob", "Bob drinks green tea too", Map.of());
    JsonNode r =
        f.call(
                "POST",
                "/v2/memories/search/",
                key,
                "{\"query\": \"green tea\", \"filters\": {\"AND\": [{\"user_id\": \"alice\"}]}}")
            .json();
    assertThat(r.isArray()).isTrue();
    assertThat(r).hasSize(1);
    assertThat(r.get(0).path("id").asText()).isEqualTo(tea);
    JsonNode page =
        f.call(
                "POST",
                "/v2/memories/?page=1&page_size=10",
                key,
                "{\"filters\": {\"user_id\": \"alice\"}}")
            .json();
    assertThat(page.path("count").asInt()).isEqualTo(1);
    assertThat(page.path("results").get(0).path("id").asText()).isEqualTo(tea);
    var noFilters = f.call("POST", "/v2/memories/search/", key, "{\"query\": \"tea\"}");
    assertThat(noFilters.status()).isEqualTo(400);
    assertThat(noFilters.json().path("detail").asText()).isEqualTo("filters");
  }
}

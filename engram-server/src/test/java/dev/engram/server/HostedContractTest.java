package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.server.auth.KeyRole;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hosted platform routes (what mem0's {@code MemoryClient} calls) on a real server over real
 * embedded storage: the field names and JSON types the clients read, page-numbered listings,
 * entities, batches and exports.
 */
class HostedContractTest {
  @TempDir Path dir;
  ServerFixture f;
  String admin;
  String member;
  Memory acme;

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
    admin = f.key("acme", KeyRole.ADMIN).secret();
    member = f.key("acme", KeyRole.MEMBER).secret();
    acme = f.memory.forTenant("acme");
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private String seed(Scope scope, String text, Map<String, Object> metadata) {
    return acme.add(AddRequest.builder(scope).user(text).infer(false).metadata(metadata).build())
        .events()
        .get(0)
        .id();
  }

  @Test
  void pingAnswersStatusOrgProjectAndUserEmail() {
    JsonNode ping = f.call("GET", "/v1/ping/", member, null).json();
    assertThat(ping.path("status").asText()).isEqualTo("ok");
    assertThat(ping.path("org_id").asText()).isEqualTo("acme");
    assertThat(ping.path("project_id").asText()).isEqualTo("acme");
    assertThat(ping.has("user_email")).isTrue();
    assertThat(ping.path("role").asText()).isEqualTo("member");
  }

  @Test
  void memoryObjectsCarryTheFieldsTheClientsRead() {
    String id =
        seed(Scope.of("alice", "helper", null), "Alice likes green tea", Map.of("topic", "drinks"));
    JsonNode m = f.call("GET", "/v1/memories/" + id + "/", member, null).json();
    assertThat(m.path("id").asText()).isEqualTo(id);
    assertThat(m.path("memory").asText()).isEqualTo("Alice likes green tea");
    assertThat(m.path("user_id").asText()).isEqualTo("alice");
    assertThat(m.path("agent_id").asText()).isEqualTo("helper");
    assertThat(m.path("metadata").path("topic").asText()).isEqualTo("drinks");
    assertThat(m.path("hash").isTextual()).isTrue();
    assertThat(m.path("created_at").isTextual()).isTrue();
    assertThat(m.path("updated_at").isTextual()).isTrue();
    java.time.Instant.parse(m.path("created_at").asText());

    JsonNode hit =
        f.call(
                "POST",
                "/v3/memories/search/",
                member,
                "{\"query\": \"green tea\", \"filters\": {\"user_id\": \"alice\"}, \"top_k\": 3, \"output_format\": \"v1.1\"}")
            .json()
            .path("results")
            .get(0);
    assertThat(hit.path("id").asText()).isEqualTo(id);
    assertThat(hit.path("memory").asText()).isEqualTo("Alice likes green tea");
    assertThat(hit.path("score").isNumber()).isTrue();
    assertThat(hit.path("score").asDouble()).isBetween(0.0, 1.0);
    assertThat(hit.path("user_id").asText()).isEqualTo("alice");
    assertThat(hit.path("metadata").path("topic").asText()).isEqualTo("drinks");
  }

  @Test
  void searchHonoursTopKThresholdAndExplain() {
    for (int i = 0; i < 5; i++) {
      seed(Scope.user("alice"), "note number " + i + " about tea", Map.of());
    }
    JsonNode r =
        f.call(
                "POST",
                "/v3/memories/search/",
                member,
                "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"top_k\": 2, \"explain\": true}")
            .json();
    assertThat(r.path("results")).hasSize(2);
    assertThat(r.path("results").get(0).path("score_details").path("fused_score").isNumber())
        .isTrue();
    JsonNode none =
        f.call(
                "POST",
                "/v3/memories/search/",
                member,
                "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"threshold\": 1.0}")
            .json();
    assertThat(none.path("results").size()).isLessThanOrEqualTo(1);
    var bad =
        f.call(
            "POST",
            "/v3/memories/search/",
            member,
            "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"top_k\": 0}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().path("detail").asText()).isEqualTo("top_k");
    var noQuery =
        f.call("POST", "/v3/memories/search/", member, "{\"filters\": {\"user_id\": \"alice\"}}");
    assertThat(noQuery.status()).isEqualTo(400);
    assertThat(noQuery.json().path("detail").asText()).isEqualTo("query");
  }

  @Test
  void searchKeepsToMaxTokens() {
    for (int i = 0; i < 5; i++) {
      seed(Scope.user("alice"), "note number " + i + " about tea", Map.of()); // 6 cl100k tokens
    }
    JsonNode two =
        f.call(
                "POST",
                "/v3/memories/search/",
                member,
                "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"max_tokens\": 13}")
            .json();
    assertThat(two.path("results")).hasSize(2);
    JsonNode all =
        f.call(
                "POST",
                "/v3/memories/search/",
                member,
                "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"max_tokens\": 1000}")
            .json();
    assertThat(all.path("results")).hasSize(5);
    JsonNode capped =
        f.call(
                "POST",
                "/v3/memories/search/",
                member,
                "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"max_tokens\": 1000, \"top_k\": 3}")
            .json();
    assertThat(capped.path("results")).hasSize(3);
    var bad =
        f.call(
            "POST",
            "/v3/memories/search/",
            member,
            "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"max_tokens\": 0}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().path("detail").asText()).isEqualTo("max_tokens");
  }

  @Test
  void searchTakesEngramsRankingStepsAndRefusesUnknownOnes() {
    seed(Scope.user("alice"), "note about tea", Map.of());
    for (String ranking : List.of("none", "default", "all", "neighbours,diversity")) {
      var ok =
          f.call(
              "POST",
              "/v3/memories/search/",
              member,
              "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"ranking\": \""
                  + ranking
                  + "\"}");
      assertThat(ok.status()).as(ranking).isEqualTo(200);
      assertThat(ok.json().path("results")).as(ranking).hasSize(1);
    }
    var bad =
        f.call(
            "POST",
            "/v3/memories/search/",
            member,
            "{\"query\": \"tea\", \"filters\": {\"user_id\": \"alice\"}, \"ranking\": \"dates,magic\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().path("detail").asText()).isEqualTo("ranking");
    assertThat(bad.body()).contains("magic");
  }

  @Test
  void v3ListingPagesWithCountNextPreviousTheLastPageAndPastTheEnd() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      ids.add(seed(Scope.user("alice"), "fact " + i, Map.of()));
    }
    seed(Scope.user("bob"), "bob's fact", Map.of());
    String body = "{\"filters\": {\"user_id\": \"alice\"}}";
    JsonNode p1 = f.call("POST", "/v3/memories/?page=1&page_size=2", member, body).json();
    assertThat(p1.path("count").asLong()).isEqualTo(5);
    assertThat(p1.path("results")).hasSize(2);
    assertThat(p1.path("previous").isNull()).isTrue();
    assertThat(p1.path("next").asText())
        .endsWith("/v3/memories/?page=2&page_size=2")
        .startsWith("http://");
    JsonNode p2 = f.call("POST", "/v3/memories/?page=2&page_size=2", member, body).json();
    assertThat(p2.path("previous").asText()).endsWith("?page=1&page_size=2");
    assertThat(p2.path("next").asText()).endsWith("?page=3&page_size=2");
    JsonNode p3 = f.call("POST", "/v3/memories/?page=3&page_size=2", member, body).json();
    assertThat(p3.path("results")).hasSize(1);
    assertThat(p3.path("next").isNull()).isTrue();
    JsonNode past = f.call("POST", "/v3/memories/?page=9&page_size=2", member, body).json();
    assertThat(past.path("count").asLong()).isEqualTo(5);
    assertThat(past.path("results")).isEmpty();
    assertThat(past.path("next").isNull()).isTrue();
    assertThat(past.path("previous").asText()).endsWith("?page=8&page_size=2");

    List<String> seen = new ArrayList<>();
    for (JsonNode p : List.of(p1, p2, p3)) {
      p.path("results").forEach(m -> seen.add(m.path("id").asText()));
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(ids);

    JsonNode bodyPaged =
        f.call(
                "POST",
                "/v3/memories/",
                member,
                "{\"filters\": {\"user_id\": \"alice\"}, \"page\": 2, \"page_size\": 4}")
            .json();
    assertThat(bodyPaged.path("results")).hasSize(1);
    JsonNode defaults = f.call("POST", "/v3/memories/", member, body).json();
    assertThat(defaults.path("results")).hasSize(5);
    assertThat(defaults.path("next").isNull()).isTrue();

    for (String q : new String[] {"page=0", "page=x", "page_size=0", "page_size=1001"}) {
      var r = f.call("POST", "/v3/memories/?" + q, member, body);
      assertThat(r.status()).as(q).isEqualTo(400);
      assertThat(r.json().path("detail").asText()).as(q).isEqualTo(q.substring(0, q.indexOf('=')));
    }
  }

  @Test
  void theLargestPageNumbersAnswerAnEmptyPageOrA400NeverAnError() {
    seed(Scope.user("alice"), "one", Map.of());
    String body = "{\"filters\": {\"user_id\": \"alice\"}}";
    String[][] calls = {
      {"POST", "/v3/memories/", body},
      {"POST", "/v2/memories/", body},
      {"GET", "/v1/memories/?user_id=alice&", null},
      {"GET", "/v1/events/", null},
      {"GET", "/v1/entities/", null}
    };
    for (String[] c : calls) {
      for (String q :
          new String[] {
            "page=2147483647",
            "page=2147483647&page_size=1000",
            "page=21474837&page_size=100",
            "page=2147483646&page_size=1"
          }) {
        String path = c[1] + (c[1].endsWith("&") ? "" : "?") + q;
        var r = f.call(c[0], path, member, c[2]);
        assertThat(r.status()).as(path + ": " + r.body()).isIn(200, 400);
        if (r.status() == 200) {
          assertThat(r.json().path("results")).as(path).isEmpty();
          assertThat(r.json().path("next").isNull()).as(path).isTrue();
        } else {
          assertThat(r.json().path("detail").asText()).as(path).isEqualTo("page");
        }
      }
    }
  }

  @Test
  void updateReturnsTheMemoryAndRefusesTimestamp() {
    String id = seed(Scope.user("alice"), "Alice lives in Oslo", Map.of());
    JsonNode u =
        f.call(
                "PUT",
                "/v1/memories/" + id + "/",
                member,
                "{\"text\": \"Alice lives in Bergen\", \"metadata\": {\"moved\": true}, \"expiration_date\": null}")
            .json();
    assertThat(u.path("id").asText()).isEqualTo(id);
    assertThat(u.path("memory").asText()).isEqualTo("Alice lives in Bergen");
    assertThat(u.path("metadata").path("moved").asBoolean()).isTrue();
    JsonNode expiring =
        f.call("PUT", "/v1/memories/" + id + "/", member, "{\"expiration_date\": \"2099-01-31\"}")
            .json();
    assertThat(expiring.path("expiration_date").asText()).isEqualTo("2099-01-31");

    var ts =
        f.call(
            "PUT",
            "/v1/memories/" + id + "/",
            member,
            "{\"text\": \"x\", \"timestamp\": 1700000000}");
    assertThat(ts.status()).isEqualTo(400);
    assertThat(ts.json().path("detail").asText()).isEqualTo("timestamp");
    assertThat(acme.get(id).orElseThrow().text()).isEqualTo("Alice lives in Bergen");

    var empty = f.call("PUT", "/v1/memories/" + id + "/", member, "{}");
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.json().path("detail").asText()).isEqualTo("text");
    var missing = f.call("PUT", "/v1/memories/no-such-id/", member, "{\"text\": \"x\"}");
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().path("error").asText()).contains("no-such-id");
  }

  @Test
  void deleteAnswersMessageAndCascadeCountThenTheMemoryIsGoneButItsHistoryStays() {
    String id = seed(Scope.user("alice"), "to be deleted", Map.of());
    JsonNode d =
        f.call("DELETE", "/v1/memories/" + id + "/?delete_linked=true", member, null).json();
    assertThat(d.path("message").asText()).isNotBlank();
    assertThat(d.path("cascade_count").isInt()).isTrue();
    assertThat(acme.get(id)).isEmpty();
    var again = f.call("DELETE", "/v1/memories/" + id + "/", member, null);
    assertThat(again.status()).isEqualTo(404);
    assertThat(again.json().path("detail").asText()).isEqualTo("memory_id");
    JsonNode history = f.call("GET", "/v1/memories/" + id + "/history/", member, null).json();
    assertThat(history).hasSize(2);
    assertThat(history.get(1).path("event").asText()).isEqualTo("DELETE");
    assertThat(history.get(1).path("pipeline").asText()).isEqualTo("delete");
  }

  @Test
  void historyRowsCarryTheClientFields() {
    String id = seed(Scope.user("alice"), "first", Map.of());
    acme.update(id, dev.engram.MemoryUpdate.text("second"));
    JsonNode h = f.call("GET", "/v1/memories/" + id + "/history/", member, null).json();
    assertThat(h.isArray()).isTrue();
    assertThat(h).hasSize(2);
    JsonNode add = h.get(0);
    assertThat(add.path("memory_id").asText()).isEqualTo(id);
    assertThat(add.path("event").asText()).isEqualTo("ADD");
    assertThat(add.path("old_memory").isNull()).isTrue();
    assertThat(add.path("new_memory").asText()).isEqualTo("first");
    assertThat(add.path("user_id").asText()).isEqualTo("alice");
    assertThat(add.path("created_at").isTextual()).isTrue();
    assertThat(add.path("updated_at").isTextual()).isTrue();
    assertThat(h.get(1).path("old_memory").asText()).isEqualTo("first");
    assertThat(h.get(1).path("new_memory").asText()).isEqualTo("second");
    assertThat(add.path("pipeline").asText()).as("an infer=false add").isEqualTo("raw");
    assertThat(h.get(1).path("pipeline").asText()).as("a direct edit").isEqualTo("update");
    assertThat(f.call("GET", "/v1/memories/nope/history/", member, null).status()).isEqualTo(404);
  }

  @Test
  void deleteAllOfAScopeIsAdminOnlyNeedsAnIdAndRefusesAppId() {
    seed(Scope.user("alice"), "a1", Map.of());
    seed(Scope.user("alice"), "a2", Map.of());
    String bob = seed(Scope.user("bob"), "b1", Map.of());
    assertThat(f.call("DELETE", "/v1/memories/?user_id=alice", member, null).status())
        .isEqualTo(403);
    JsonNode d = f.call("DELETE", "/v1/memories/?user_id=alice", admin, null).json();
    assertThat(d.path("count").asInt()).isEqualTo(2);
    assertThat(d.path("message").asText()).isNotBlank();
    assertThat(acme.get(bob)).isPresent();
    var none = f.call("DELETE", "/v1/memories/", admin, null);
    assertThat(none.status()).isEqualTo(400);
    assertThat(none.json().path("detail").asText()).isEqualTo("user_id");
    var metadata =
        f.call("DELETE", "/v1/memories/?user_id=bob&metadata=%7B%22k%22%3A1%7D", admin, null);
    assertThat(metadata.status()).isEqualTo(400);
    assertThat(metadata.json().path("detail").asText()).isEqualTo("metadata");
    assertThat(acme.get(bob)).isPresent();
    var app = f.call("DELETE", "/v1/memories/?app_id=x", admin, null);
    assertThat(app.status()).isEqualTo(400);
    assertThat(app.json().path("detail").asText()).isEqualTo("app_id");
  }

  @Test
  void entitiesListTypeNameTotalsAndPages() {
    seed(Scope.user("alice"), "a1", Map.of());
    seed(Scope.user("alice"), "a2", Map.of());
    seed(Scope.user("bob"), "b1", Map.of());
    seed(Scope.agent("helper"), "h1", Map.of());
    seed(Scope.run("run-1"), "r1", Map.of());
    JsonNode e = f.call("GET", "/v1/entities/", member, null).json();
    assertThat(e.path("count").asInt()).isEqualTo(4);
    assertThat(e.path("total_users").asInt()).isEqualTo(2);
    assertThat(e.path("total_agents").asInt()).isEqualTo(1);
    assertThat(e.path("total_runs").asInt()).isEqualTo(1);
    assertThat(e.path("total_apps").asInt()).isZero();
    assertThat(e.path("next").isNull()).isTrue();
    JsonNode alice = null;
    for (JsonNode r : e.path("results")) {
      assertThat(r.path("type").asText()).isIn("user", "agent", "run");
      assertThat(r.path("name").asText()).isEqualTo(r.path("id").asText());
      assertThat(r.has("owner")).isTrue();
      assertThat(r.has("metadata")).isTrue();
      assertThat(r.path("created_at").isTextual()).isTrue();
      if (r.path("id").asText().equals("alice")) {
        alice = r;
      }
    }
    assertThat(alice).isNotNull();
    assertThat(alice.path("total_memories").asInt()).isEqualTo(2);
    JsonNode page2 = f.call("GET", "/v1/entities/?page=2&page_size=3", member, null).json();
    assertThat(page2.path("results")).hasSize(1);
    assertThat(page2.path("count").asInt()).isEqualTo(4);
    assertThat(page2.path("previous").asText()).endsWith("?page=1&page_size=3");
    assertThat(page2.path("next").isNull()).isTrue();
  }

  @Test
  void deleteEntityRemovesOnlyThatEntitysMemoriesOnBothVersions() {
    seed(Scope.user("alice"), "a1", Map.of());
    String bob = seed(Scope.user("bob"), "b1", Map.of());
    seed(Scope.agent("helper"), "h1", Map.of());
    assertThat(f.call("DELETE", "/v2/entities/user/alice/", member, null).status()).isEqualTo(403);
    JsonNode d = f.call("DELETE", "/v2/entities/user/alice/", admin, null).json();
    assertThat(d.path("message").asText()).isNotBlank();
    assertThat(d.path("count").asInt()).isEqualTo(1);
    JsonNode d1 = f.call("DELETE", "/v1/entities/agent/helper/", admin, null).json();
    assertThat(d1.path("count").asInt()).isEqualTo(1);
    assertThat(acme.entities()).extracting(dev.engram.EntitySummary::id).containsExactly("bob");
    assertThat(acme.get(bob)).isPresent();
    var bad = f.call("DELETE", "/v2/entities/app/x/", admin, null);
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().path("detail").asText()).isEqualTo("entity_type");
  }

  @Test
  void pathParametersArePercentDecoded() {
    seed(Scope.user("ana-élève"), "a1", Map.of());
    seed(Scope.user("ana"), "a2", Map.of());
    JsonNode d = f.call("DELETE", "/v2/entities/user/ana-%C3%A9l%C3%A8ve/", admin, null).json();
    assertThat(d.path("count").asInt()).isEqualTo(1);
    assertThat(acme.entities()).extracting(dev.engram.EntitySummary::id).containsExactly("ana");
    // Jetty refuses a path that is not UTF-8, or that an encoded slash or dot segment makes
    // ambiguous, before any route: the same JSON error body (for a DELETE too), nothing deleted.
    for (String path :
        List.of(
            "/v2/entities/user/ana%C3%28/",
            "/v2/entities/user/a%2Fb/", "/v2/entities/user/%2e%2e/")) {
      var bad = f.call("DELETE", path, admin, null);
      assertThat(bad.status()).as(path).isEqualTo(400);
      assertThat(bad.json().path("detail").asText()).as(path).isEqualTo("request");
    }
    assertThat(acme.entities()).extracting(dev.engram.EntitySummary::id).containsExactly("ana");
  }

  @Test
  void batchUpdateAndDeleteApplyAllOrNothing() {
    String a = seed(Scope.user("alice"), "one", Map.of());
    String b = seed(Scope.user("alice"), "two", Map.of());
    JsonNode u =
        f.call(
                "PUT",
                "/v1/batch/",
                member,
                "{\"memories\": [{\"memory_id\": \""
                    + a
                    + "\", \"text\": \"uno\"}, {\"memory_id\": \""
                    + b
                    + "\", \"metadata\": {\"n\": 2}}]}")
            .json();
    assertThat(u.path("message").asText()).contains("2");
    assertThat(acme.get(a).orElseThrow().text()).isEqualTo("uno");
    assertThat(acme.get(b).orElseThrow().metadata()).containsEntry("n", 2);

    var partial =
        f.call(
            "PUT",
            "/v1/batch/",
            member,
            "{\"memories\": [{\"memory_id\": \""
                + a
                + "\", \"text\": \"changed\"}, {\"memory_id\": \"missing\", \"text\": \"y\"}]}");
    assertThat(partial.status()).isEqualTo(404);
    assertThat(acme.get(a).orElseThrow().text()).isEqualTo("uno");
    var noId = f.call("PUT", "/v1/batch/", member, "{\"memories\": [{\"text\": \"y\"}]}");
    assertThat(noId.status()).isEqualTo(400);
    assertThat(noId.json().path("detail").asText()).isEqualTo("memories[0].memory_id");
    var empty = f.call("DELETE", "/v1/batch/", member, "{\"memories\": []}");
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.json().path("detail").asText()).isEqualTo("memories");
    StringBuilder many = new StringBuilder("{\"memories\": [");
    for (int i = 0; i < 1001; i++) {
      many.append(i == 0 ? "" : ",").append("{\"memory_id\": \"m").append(i).append("\"}");
    }
    var tooMany = f.call("DELETE", "/v1/batch/", member, many.append("]}").toString());
    assertThat(tooMany.status()).isEqualTo(400);
    assertThat(tooMany.json().path("detail").asText()).isEqualTo("memories");

    var missingDelete =
        f.call(
            "DELETE",
            "/v1/batch/",
            member,
            "{\"memories\": [{\"memory_id\": \"" + a + "\"}, {\"memory_id\": \"missing\"}]}");
    assertThat(missingDelete.status()).isEqualTo(404);
    assertThat(acme.get(a)).isPresent();
    JsonNode d =
        f.call(
                "DELETE",
                "/v1/batch/",
                member,
                "{\"memories\": [{\"memory_id\": \"" + a + "\"}, {\"memory_id\": \"" + b + "\"}]}")
            .json();
    assertThat(d.path("message").asText()).contains("2");
    assertThat(acme.get(a)).isEmpty();
    assertThat(acme.get(b)).isEmpty();
  }

  @Test
  void exportsAreSynchronousAndTheExportIdEncodesTheFilters() {
    String a = seed(Scope.user("alice"), "exported one", Map.of("k", "v"));
    String a2 = seed(Scope.user("alice"), "exported two", Map.of("k", "w"));
    seed(Scope.user("bob"), "not exported", Map.of());
    assertThat(
            f.call("POST", "/v1/exports/", member, "{\"filters\": {\"user_id\": \"alice\"}}")
                .status())
        .isEqualTo(403);
    JsonNode created =
        f.call(
                "POST",
                "/v1/exports/",
                admin,
                "{\"schema\": {}, \"filters\": {\"user_id\": \"alice\"}}")
            .json();
    String exportId = created.path("id").asText();
    assertThat(exportId).isNotBlank();
    assertThat(created.path("message").asText()).isNotBlank();
    JsonNode got =
        f.call("POST", "/v1/exports/get/", admin, "{\"memory_export_id\": \"" + exportId + "\"}")
            .json();
    assertThat(got.path("count").asInt()).isEqualTo(2);
    List<String> ids = new ArrayList<>();
    got.path("results").forEach(m -> ids.add(m.path("id").asText()));
    assertThat(ids).containsExactlyInAnyOrder(a, a2);
    JsonNode byFilter =
        f.call(
                "POST",
                "/v1/exports/get/",
                admin,
                "{\"filters\": {\"user_id\": \"alice\", \"k\": \"w\"}}")
            .json();
    assertThat(byFilter.path("results")).hasSize(1);
    assertThat(byFilter.path("results").get(0).path("id").asText()).isEqualTo(a2);
    var unknown = f.call("POST", "/v1/exports/get/", admin, "{\"memory_export_id\": \"%%%\"}");
    assertThat(unknown.status()).isEqualTo(404);
    var unscoped = f.call("POST", "/v1/exports/", admin, "{\"filters\": {\"k\": \"v\"}}");
    assertThat(unscoped.status()).isEqualTo(400);
    assertThat(unscoped.json().path("detail").asText()).isEqualTo("filters");
  }
}

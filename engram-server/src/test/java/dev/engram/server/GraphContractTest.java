package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.server.auth.KeyRole;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Graph memory over HTTP (the offline graph extractor, no LLM): an add's relations, search
 * relations, the relations and neighbourhood routes, and {@code as_of} on both (what held at an
 * instant).
 */
class GraphContractTest {
  static final String SAID_AT = "2023-05-08T13:56:00Z";

  @TempDir Path dir;
  ServerFixture f;
  String key;

  @BeforeEach
  void start() {
    f =
        new ServerFixture(
            dir,
            ServerSettings.builder().port(0).build(),
            Clock.systemUTC(),
            b -> b.graph(OfflineGraphExtractor.create()));
    key = f.key("acme", KeyRole.MEMBER).secret();
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private JsonNode addCaroline() {
    var r =
        f.call(
            "POST",
            "/v1/memories/",
            key,
            "{\"messages\": [{\"role\": \"user\", \"name\": \"Caroline\","
                + " \"content\": \"Caroline went to the LGBTQ support group in Boston\"}], \"user_id\": \"caroline\","
                + " \"infer\": false, \"timestamp\": \""
                + SAID_AT
                + "\"}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private static List<String> triples(JsonNode relations) {
    List<String> out = new ArrayList<>();
    relations.forEach(
        r ->
            out.add(
                r.path("source").asText()
                    + " "
                    + r.path("relationship").asText()
                    + " "
                    + r.path("destination").asText()));
    return out;
  }

  @Test
  void anAddReportsTheRelationsItAdded() {
    JsonNode added = addCaroline().path("relations").path("added_entities");
    assertThat(added).isNotEmpty();
    JsonNode first = added.get(0);
    assertThat(first.path("source").isTextual()).isTrue();
    assertThat(first.path("relationship").isTextual()).isTrue();
    assertThat(first.path("target").isTextual()).isTrue();
    assertThat(addCaroline().path("relations").path("deleted_entities").isArray()).isTrue();
  }

  @Test
  void relationsRouteWithBothTimeAxes() {
    addCaroline();
    JsonNode now =
        f.call("GET", "/v1/graph/relations/?user_id=caroline&entity=Boston", key, null)
            .json()
            .path("relations");
    assertThat(triples(now)).contains("Caroline related_to Boston");
    JsonNode r = now.get(0);
    assertThat(r.path("fact").isTextual()).isTrue();
    assertThat(r.has("valid_at")).isTrue();
    assertThat(r.has("invalid_at")).isTrue();
    assertThat(r.path("source_ids").isArray()).isTrue();
    assertThat(r.path("memory_ids").isArray()).isTrue();
    assertThat(
            f.call("GET", "/v1/graph/relations/?user_id=caroline&entity=boston", key, null)
                .json()
                .path("relations"))
        .hasSameSizeAs(now);

    JsonNode before =
        f.call(
                "GET",
                "/v1/graph/relations/?user_id=caroline&entity=Boston&as_of=2020-01-01T00:00:00Z",
                key,
                null)
            .json()
            .path("relations");
    assertThat(before).isEmpty();
    JsonNode after =
        f.call(
                "GET",
                "/v1/graph/relations/?user_id=caroline&entity=Boston&as_of=2024-01-01T00:00:00Z",
                key,
                null)
            .json()
            .path("relations");
    assertThat(triples(after)).contains("Caroline related_to Boston");
    JsonNode all =
        f.call(
                "GET",
                "/v1/graph/relations/?user_id=caroline&entity=Boston&include_invalidated=true",
                key,
                null)
            .json()
            .path("relations");
    assertThat(all.size()).isGreaterThanOrEqualTo(now.size());

    assertThat(
            f.call("GET", "/v1/graph/relations/?user_id=bob&entity=Boston", key, null)
                .json()
                .path("relations"))
        .isEmpty();
    assertThat(
            f.call("GET", "/v1/graph/relations/?user_id=caroline&entity=Paris", key, null)
                .json()
                .path("relations"))
        .isEmpty();
  }

  @Test
  void aroundRouteWalksHops() {
    addCaroline();
    JsonNode around =
        f.call("GET", "/v1/graph/around/?user_id=caroline&entity=Caroline&hops=2", key, null)
            .json()
            .path("relations");
    assertThat(triples(around)).contains("Caroline related_to Boston");
    JsonNode before =
        f.call(
                "GET",
                "/v1/graph/around/?user_id=caroline&entity=Caroline&as_of=2020-01-01",
                key,
                null)
            .json()
            .path("relations");
    assertThat(before).isEmpty();
    for (String q : new String[] {"hops=0", "hops=4", "hops=x"}) {
      var r = f.call("GET", "/v1/graph/around/?user_id=caroline&entity=Caroline&" + q, key, null);
      assertThat(r.status()).as(q).isEqualTo(400);
      assertThat(r.json().path("detail").asText()).isEqualTo("hops");
    }
  }

  @Test
  void searchCarriesRelationsAndHonoursAsOf() {
    addCaroline();
    JsonNode now =
        f.call(
                "POST",
                "/v3/memories/search/",
                key,
                "{\"query\": \"Where is Caroline's support group?\", \"filters\": {\"user_id\": \"caroline\"}}")
            .json();
    assertThat(now.path("results")).isNotEmpty();
    assertThat(now.path("relations")).isNotEmpty();
    JsonNode before =
        f.call(
                "POST",
                "/v3/memories/search/",
                key,
                "{\"query\": \"Where is Caroline's support group?\", \"filters\": {\"user_id\": \"caroline\"},"
                    + " \"as_of\": \"2020-01-01T00:00:00Z\"}")
            .json();
    assertThat(before.path("results")).isNotEmpty();
    assertThat(before.path("relations").size()).isZero();
    var bad =
        f.call(
            "POST",
            "/v3/memories/search/",
            key,
            "{\"query\": \"q\", \"filters\": {\"user_id\": \"caroline\"}, \"as_of\": \"yesterday\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().path("detail").asText()).isEqualTo("as_of");
  }

  @Test
  void aMemorysRelationsAndAsOf() {
    String id = addCaroline().path("results").get(0).path("id").asText();
    JsonNode rel =
        f.call("GET", "/v1/memories/" + id + "/relations/", key, null).json().path("relations");
    assertThat(triples(rel)).contains("Caroline related_to Boston");
    rel.forEach(r -> assertThat(r.path("memory_ids").toString()).contains(id));
    assertThat(
            f.call(
                    "GET",
                    "/v1/memories/" + id + "/relations/?as_of=2020-01-01T00:00:00Z",
                    key,
                    null)
                .json()
                .path("relations"))
        .isEmpty();
    var missing = f.call("GET", "/v1/memories/no-such-id/relations/", key, null);
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.json().path("detail").asText()).isEqualTo("memory_id");
    String other = f.key("globex", KeyRole.ADMIN).secret();
    assertThat(f.call("GET", "/v1/memories/" + id + "/relations/", other, null).status())
        .isEqualTo(404);
  }

  @Test
  void badGraphQueriesNameTheField() {
    var noEntity = f.call("GET", "/v1/graph/relations/?user_id=caroline", key, null);
    assertThat(noEntity.status()).isEqualTo(400);
    assertThat(noEntity.json().path("detail").asText()).isEqualTo("entity");
    var noScope = f.call("GET", "/v1/graph/relations/?entity=Boston", key, null);
    assertThat(noScope.status()).isEqualTo(400);
    assertThat(noScope.json().path("detail").asText()).isEqualTo("user_id");
    var badTime = f.call("GET", "/v1/graph/relations/?user_id=c&entity=B&as_of=soon", key, null);
    assertThat(badTime.status()).isEqualTo(400);
    assertThat(badTime.json().path("detail").asText()).isEqualTo("as_of");
    var badBool =
        f.call(
            "GET", "/v1/graph/around/?user_id=c&entity=B&include_invalidated=perhaps", key, null);
    assertThat(badBool.status()).isEqualTo(400);
    assertThat(badBool.json().path("detail").asText()).isEqualTo("include_invalidated");
  }
}

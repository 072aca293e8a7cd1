package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.server.auth.KeyRole;
import dev.engram.testing.TickingClock;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mem0's filter language over HTTP, on listings and searches: AND/OR/NOT, the {@code {"metadata":
 * {...}}} form, scope ids at the top level, inside a top-level AND and in camelCase, the operators,
 * and created_at ranges. The engine runs on a {@link TickingClock} so that every memory has its own
 * creation second.
 */
class FilterContractTest {
  @TempDir Path dir;
  ServerFixture f;
  String key;
  Memory acme;
  String cat;
  String pizza;
  String dog;
  String bobPets;

  @BeforeEach
  void start() {
    f =
        new ServerFixture(
            dir,
            ServerSettings.builder().port(0).build(),
            Clock.systemUTC(),
            b -> b.clock(new TickingClock()));
    key = f.key("acme", KeyRole.MEMBER).secret();
    acme = f.memory.forTenant("acme");
    cat =
        seed(
            "alice",
            "Alice has a cat called Tom",
            Map.of("topic", "pets", "age", 3, "tags", "cat indoor"));
    pizza = seed("alice", "Alice likes pizza with olives", Map.of("topic", "food", "age", 10));
    dog =
        seed(
            "alice",
            "Alice walks the neighbour's dog",
            Map.of("topic", "pets", "age", 12, "tags", "dog"));
    bobPets = seed("bob", "Bob has a parrot", Map.of("topic", "pets", "age", 3));
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

  private List<String> list(String filters) {
    var r = f.call("POST", "/v3/memories/", key, "{\"filters\": " + filters + "}");
    assertThat(r.status()).as(filters + ": " + r.body()).isEqualTo(200);
    return ids(r.json());
  }

  private List<String> search(String filters) {
    var r =
        f.call(
            "POST",
            "/v3/memories/search/",
            key,
            "{\"query\": \"Alice pets food dog cat\", \"top_k\": 50,"
                + " \"filters\": "
                + filters
                + "}");
    assertThat(r.status()).as(filters + ": " + r.body()).isEqualTo(200);
    return ids(r.json());
  }

  private static List<String> ids(JsonNode page) {
    List<String> out = new ArrayList<>();
    page.path("results").forEach(m -> out.add(m.path("id").asText()));
    return out;
  }

  private void both(String filters, String... expected) {
    assertThat(list(filters)).as("list " + filters).containsExactlyInAnyOrder(expected);
    assertThat(search(filters)).as("search " + filters).containsExactlyInAnyOrder(expected);
  }

  @Test
  void scopeIdsAtTheTopLevelInsideAndAndInCamelCase() {
    both("{\"user_id\": \"alice\"}", cat, pizza, dog);
    both("{\"userId\": \"alice\"}", cat, pizza, dog);
    both("{\"AND\": [{\"user_id\": \"alice\"}]}", cat, pizza, dog);
    both("{\"AND\": [{\"userId\": \"bob\"}, {\"topic\": \"pets\"}]}", bobPets);
  }

  @Test
  void metadataFormAndLogic() {
    both("{\"AND\": [{\"user_id\": \"alice\"}, {\"metadata\": {\"topic\": \"pets\"}}]}", cat, dog);
    both("{\"user_id\": \"alice\", \"metadata\": {\"topic\": \"pets\", \"age\": 12}}", dog);
    both(
        "{\"user_id\": \"alice\", \"OR\": [{\"topic\": \"food\"}, {\"age\": {\"gte\": 12}}]}",
        pizza,
        dog);
    both(
        "{\"user_id\": \"alice\", \"OR\": [{\"metadata\": {\"topic\": \"food\"}}, {\"tags\": \"dog\"}]}",
        pizza,
        dog);
    both("{\"user_id\": \"alice\", \"NOT\": [{\"topic\": \"pets\"}]}", pizza);
    both(
        "{\"AND\": [{\"user_id\": \"alice\"}, {\"NOT\": [{\"metadata\": {\"topic\": \"food\"}}]}]}",
        cat,
        dog);
  }

  @Test
  void operators() {
    both("{\"user_id\": \"alice\", \"age\": {\"gte\": 10}}", pizza, dog);
    both("{\"user_id\": \"alice\", \"age\": {\"gte\": 3, \"lt\": 12}}", cat, pizza);
    both("{\"user_id\": \"alice\", \"topic\": {\"in\": [\"food\", \"travel\"]}}", pizza);
    both("{\"user_id\": \"alice\", \"topic\": {\"nin\": [\"food\"]}}", cat, dog);
    both("{\"user_id\": \"alice\", \"tags\": {\"contains\": \"indoor\"}}", cat);
    both("{\"user_id\": \"alice\", \"topic\": {\"ne\": \"pets\"}}", pizza);
    both("{\"user_id\": \"alice\", \"tags\": \"*\"}", cat, dog);
  }

  @Test
  void createdAtRanges() {
    String second = acme.get(pizza).orElseThrow().createdAt().toString();
    String third = acme.get(dog).orElseThrow().createdAt().toString();
    both("{\"user_id\": \"alice\", \"created_at\": {\"gte\": \"" + second + "\"}}", pizza, dog);
    both("{\"user_id\": \"alice\", \"created_at\": {\"lt\": \"" + second + "\"}}", cat);
    both(
        "{\"user_id\": \"alice\", \"created_at\": {\"gte\": \""
            + second
            + "\", \"lt\": \""
            + third
            + "\"}}",
        pizza);
    both("{\"AND\": [{\"user_id\": \"alice\"}, {\"created_at\": {\"gt\": \"" + third + "\"}}]}");
  }

  @Test
  void badFiltersAreA400NamingTheField() {
    String[][] cases = {
      {"{}", "filters"},
      {"{\"user_id\": \"*\"}", "filters"},
      {"{\"topic\": \"pets\"}", "filters"},
      {"[\"user_id\"]", "filters"},
      {"\"alice\"", "filters"},
      {"{\"app_id\": \"x\", \"user_id\": \"alice\"}", "filters.app_id"},
      {"{\"AND\": [{\"user_id\": \"alice\"}, {\"user_id\": \"bob\"}]}", "filters.user_id"},
    };
    for (String[] c : cases) {
      for (String path : new String[] {"/v3/memories/", "/v3/memories/search/"}) {
        var r = f.call("POST", path, key, "{\"query\": \"q\", \"filters\": " + c[0] + "}");
        assertThat(r.status()).as(path + " " + c[0]).isEqualTo(400);
        assertThat(r.json().path("detail").asText()).as(path + " " + c[0]).isEqualTo(c[1]);
      }
    }
    for (String bad :
        new String[] {
          "{\"user_id\": \"alice\", \"age\": {\"between\": 1}}",
          "{\"user_id\": \"alice\", \"OR\": []}",
          "{\"user_id\": \"alice\", \"age\": {\"gte\": [1]}}"
        }) {
      var r = f.call("POST", "/v3/memories/", key, "{\"filters\": " + bad + "}");
      assertThat(r.status()).as(bad).isEqualTo(400);
      assertThat(r.json().path("detail").asText()).as(bad).isNotBlank();
    }
  }
}

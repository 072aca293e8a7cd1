package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.AddRequest;
import dev.engram.MemoryUpdate;
import dev.engram.Scope;
import dev.engram.json.MemoryJson;
import dev.engram.json.MemoryRecordJson;
import dev.engram.server.auth.KeyRole;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/engram/export/} and {@code POST /v1/engram/import/} on a real server as a script
 * sees them: JSON Lines in engram export's format, the tenant of the key, admin keys only, an
 * import that is all or nothing.
 */
class TransferRoutesTest {
  @TempDir Path dir;
  ServerFixture f;
  String admin;

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
    admin = f.key("default", KeyRole.ADMIN).secret();
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private static List<JsonNode> lines(String body) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String line : body.split("\n")) {
      out.add(MemoryJson.mapper().readTree(line));
    }
    return out;
  }

  @Test
  void anExportIsJsonLinesOfTheKeysTenantThatAnotherTenantCanImport() throws Exception {
    String dog =
        f.memory
            .add(
                AddRequest.builder(Scope.user("alice"))
                    .user("My dog is called Max")
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    f.memory.update(dog, MemoryUpdate.text("My dog is called Max, a beagle"));
    f.memory.add(AddRequest.builder(Scope.user("bob")).user("Bob likes tea").infer(false).build());
    f.memory
        .forTenant("acme")
        .add(AddRequest.builder(Scope.user("alice")).user("acme secret").infer(false).build());

    var export = f.call("POST", "/v1/engram/export/", admin, "{\"user_id\": \"alice\"}");
    assertThat(export.status()).isEqualTo(200);
    assertThat(export.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/x-ndjson");
    List<JsonNode> lines = lines(export.body());
    assertThat(lines).hasSize(2);
    MemoryRecordJson.checkHeader("line 1", lines.get(0));
    assertThat(lines.get(0).path("tenant").asText()).isEqualTo("default");
    assertThat(lines.get(0).path("scope").path("user_id").asText()).isEqualTo("alice");
    JsonNode record = lines.get(1);
    assertThat(record.path("id").asText()).isEqualTo(dog);
    assertThat(record.path("memory").asText()).isEqualTo("My dog is called Max, a beagle");
    assertThat(record.path("history"))
        .extracting(h -> h.path("event").asText())
        .containsExactly("ADD", "UPDATE");
    assertThat(record.path("history").get(1).path("seq").asLong())
        .isEqualTo(f.memory.history(dog).get(1).seq())
        .isPositive();

    var whole = f.call("POST", "/v1/engram/export/", admin, null);
    assertThat(lines(whole.body()))
        .hasSize(3)
        .noneMatch(l -> l.path("memory").asText().contains("acme"));

    String acme = f.key("acme", KeyRole.ADMIN).secret();
    ObjectNode body = MemoryJson.mapper().createObjectNode();
    ArrayNode records = body.putArray("records");
    records.add(record);
    var imported = f.call("POST", "/v1/engram/import/", acme, MemoryJson.write(body));
    assertThat(imported.status()).isEqualTo(200);
    assertThat(imported.json().path("imported").asInt()).isEqualTo(1);
    assertThat(f.memory.forTenant("acme").get(dog).orElseThrow().text())
        .isEqualTo("My dog is called Max, a beagle");
    assertThat(f.memory.forTenant("acme").history(dog)).hasSize(2);

    var again = f.call("POST", "/v1/engram/import/", acme, MemoryJson.write(body));
    assertThat(again.json().path("imported").asInt()).isZero();
    assertThat(again.json().path("skipped_ids")).extracting(JsonNode::asText).containsExactly(dog);
  }

  @Test
  void aBadRecordIsA400NamingItAndNothingIsWritten() {
    String good =
        "{\"id\": \"r-1\", \"memory\": \"a good memory\", \"user_id\": \"alice\", \"created_at\":"
            + " \"2024-03-01T10:00:00Z\", \"updated_at\": \"2024-03-01T10:00:00Z\", \"history\": [{\"event\": \"ADD\","
            + " \"new_memory\": \"a good memory\", \"created_at\": \"2024-03-01T10:00:00Z\"}]}";
    String tampered =
        good.replace("r-1", "r-2")
            .replace(
                "\"memory\": \"a good memory\"",
                "\"memory\": \"a good memory\", \"hash\": \"0000\"");

    var r =
        f.call(
            "POST", "/v1/engram/import/", admin, "{\"records\": [" + good + ", " + tampered + "]}");

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.body()).contains("records[1].hash");
    assertThat(f.memory.get("r-1")).isEmpty();
    assertThat(f.call("POST", "/v1/engram/import/", admin, "{\"records\": {}}").status())
        .isEqualTo(400);
    assertThat(f.call("POST", "/v1/engram/export/", admin, "{\"page_size\": 0}").body())
        .contains("page_size");
  }

  @Test
  void aMemberKeyMayNeitherExportNorImport() {
    String member = f.key("default", KeyRole.MEMBER).secret();
    assertThat(f.call("POST", "/v1/engram/export/", member, null).status()).isEqualTo(403);
    assertThat(f.call("POST", "/v1/engram/import/", member, "{\"records\": []}").status())
        .isEqualTo(403);
    assertThat(f.call("POST", "/v1/engram/export/", null, null).status()).isEqualTo(401);
  }
}

package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * engram export and engram import of Engram and mem0 exports, between data directories and tenants.
 */
class ExportImportCommandTest {
  @TempDir Path dir;

  private static JsonNode json(String text) {
    try {
      return MemoryJson.mapper().readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  private static Cli.Result ok(Cli.Result r) {
    assertThat(r.exitCode()).as(r.err()).isZero();
    return r;
  }

  @Test
  void anExportImportsIntoAnotherDataDirectoryWithoutLoss() throws Exception {
    Cli source = new Cli(dir.resolve("source"));
    String cello = source.addVerbatim("alice", "I play the cello", "--metadata", "{\"stars\": 4}");
    source.addVerbatim("alice", "I moved to Lisbon", "--expires", "2030-01-01");
    String gone = source.addVerbatim("bob", "bob dislikes rain");
    ok(source.run("update", cello, "--text", "I play the cello in an orchestra"));
    ok(source.run("delete", gone));

    Path file = dir.resolve("out/export.jsonl");
    Cli.Result exported = ok(source.run("export", "--output", file.toString()));
    assertThat(exported.err())
        .contains("exported 3 memories (1 deleted, history only) of tenant 'default' to " + file);
    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(4);
    assertThat(json(lines.get(0)).get("format").asText()).isEqualTo("engram-memories");
    Cli.Result toStdout = ok(source.run("export", "--user-id", "alice"));
    assertThat(toStdout.out().lines().toList()).hasSize(3);
    assertThat(
            json(toStdout.out().lines().findFirst().orElseThrow())
                .get("scope")
                .get("user_id")
                .asText())
        .isEqualTo("alice");

    Cli target = new Cli(dir.resolve("target"));
    Cli.Result imported = ok(target.run("import", file.toString(), "--json"));
    assertThat(imported.json().get("format").asText()).isEqualTo("engram-jsonl");
    assertThat(imported.json().get("imported").asInt()).isEqualTo(3);
    assertThat(imported.err()).contains("import").contains("3/3");
    for (String user : List.of("alice", "bob")) {
      assertThat(target.run("list", "--user-id", user, "--json").json())
          .isEqualTo(source.run("list", "--user-id", user, "--json").json());
    }
    for (String id : List.of(cello, gone)) {
      JsonNode before = source.run("history", id, "--json").json();
      JsonNode after = target.run("history", id, "--json").json();
      assertThat(after.size()).isEqualTo(before.size());
      for (int i = 0; i < before.size(); i++) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) before.get(i)).remove("id");
        ((com.fasterxml.jackson.databind.node.ObjectNode) after.get(i)).remove("id");
      }
      assertThat(after).isEqualTo(before);
    }
    JsonNode hit =
        target
            .run("search", "--user-id", "alice", "--json", "--top-k", "1", "orchestra")
            .json()
            .get("results")
            .get(0);
    assertThat(hit.get("id").asText()).isEqualTo(cello);
    assertThat(hit.get("metadata").get("stars").asInt()).isEqualTo(4);

    Cli.Result again = ok(target.run("import", file.toString()));
    assertThat(again.out())
        .contains("imported 0 of 3 memories (engram-jsonl) into tenant 'default'; 3 skipped");

    ok(target.run("import", file.toString(), "--tenant", "acme"));
    Cli.Result acme = ok(target.run("export", "--tenant", "acme"));
    assertThat(acme.out().lines().skip(1).toList()).isEqualTo(lines.subList(1, lines.size()));
    assertThat(json(acme.out().lines().findFirst().orElseThrow()).get("tenant").asText())
        .isEqualTo("acme");
  }

  @Test
  void aMem0ExportImportsWithItsIdsAndScopes() throws Exception {
    Cli cli = new Cli(dir.resolve("data"));
    Path file = Cli.resource("mem0-platform-export.json");

    Cli.Result noScope = cli.run("import", file.toString());
    assertThat(noScope.exitCode()).isEqualTo(2);
    assertThat(noScope.err()).contains("results[2] (line 34): has no user_id, agent_id or run_id");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();

    Cli.Result r = ok(cli.run("import", file.toString(), "--user-id", "alex", "--json"));
    assertThat(r.json().get("format").asText()).isEqualTo("mem0");
    assertThat(r.json().get("imported").asInt()).isEqualTo(3);

    JsonNode veg = cli.run("get", "4f0a8d3c-2b1e-4e57-9d0b-1b0d6f7c9a11", "--json").json();
    assertThat(veg.get("memory").asText()).isEqualTo("Is a vegetarian and avoids dairy");
    assertThat(veg.get("user_id").asText()).isEqualTo("alex");
    assertThat(veg.get("created_at").asText()).isEqualTo("2024-07-20T08:02:03.123456Z");
    assertThat(veg.get("updated_at").asText()).isEqualTo("2024-07-21T16:00:00Z");
    assertThat(veg.get("metadata").toString())
        .isEqualTo(
            "{\"source\":\"onboarding\",\"confidence\":0.9,"
                + "\"app_id\":\"recipes\",\"categories\":[\"food\",\"health\"]}");
    JsonNode run =
        cli.run("list", "--user-id", "alex", "--agent-id", "coach", "--json").json().get("results");
    assertThat(run.findValuesAsText("id")).containsExactly("9b6e1f42-77c2-4a0e-8f55-3c1d2e4b5a60");
    assertThat(run.get(0).get("run_id").asText()).isEqualTo("session-7");
    assertThat(run.get(0).get("expiration_date").asText()).isEqualTo("2030-12-31");
    JsonNode brief = cli.run("get", "c3d2a1b0-5e4f-4a3b-9c8d-7e6f5a4b3c2d", "--json").json();
    assertThat(brief.get("user_id").asText()).isEqualTo("alex");
    assertThat(brief.get("actor_id").asText()).isEqualTo("Alex");
    assertThat(brief.get("role").asText()).isEqualTo("user");
    assertThat(brief.get("updated_at").asText()).isEqualTo("2024-08-03T07:15:00Z");
    JsonNode history = cli.run("history", "c3d2a1b0-5e4f-4a3b-9c8d-7e6f5a4b3c2d", "--json").json();
    assertThat(history.size()).isEqualTo(1);
    assertThat(history.get(0).get("event").asText()).isEqualTo("ADD");
    assertThat(history.get(0).get("created_at").asText()).isEqualTo("2024-08-03T07:15:00Z");
    JsonNode hit =
        cli.run("search", "--user-id", "alex", "--json", "--top-k", "1", "is alex vegetarian")
            .json()
            .get("results")
            .get(0);
    assertThat(hit.get("id").asText()).isEqualTo("4f0a8d3c-2b1e-4e57-9d0b-1b0d6f7c9a11");
  }

  @Test
  void aBrokenOrIncompleteLineIsNamedAndNothingIsWritten() throws Exception {
    String header =
        "{\"format\":\"engram-memories\",\"version\":1,\"tenant\":\"default\",\"scope\":null}";
    String good =
        "{\"id\":\"m-1\",\"memory\":\"fine\",\"user_id\":\"alice\",\"created_at\":\"2024-01-01T00:00:00Z\","
            + "\"updated_at\":\"2024-01-01T00:00:00Z\",\"history\":[{\"event\":\"ADD\",\"new_memory\":\"fine\","
            + "\"created_at\":\"2024-01-01T00:00:00Z\"}]}";
    Cli cli = new Cli(dir.resolve("data"));
    Path broken =
        Files.writeString(
            dir.resolve("broken.jsonl"), header + "\n" + good + "\n{\"id\": \"m-2\",\n");
    Cli.Result r = cli.run("import", broken.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).startsWith("engram import: line 3: malformed JSON");

    Path missing =
        Files.writeString(
            dir.resolve("missing.jsonl"),
            header
                + "\n"
                + good
                + "\n"
                + good.replace("m-1", "m-2").replace("\"created_at\":\"2024-01-01T00:00:00Z\",", "")
                + "\n");
    Cli.Result r2 = cli.run("import", missing.toString());
    assertThat(r2.exitCode()).isEqualTo(2);
    assertThat(r2.err())
        .isEqualTo("engram import: line 3.created_at: is required" + System.lineSeparator());

    Path twice =
        Files.writeString(dir.resolve("twice.jsonl"), header + "\n" + good + "\n" + good + "\n");
    assertThat(cli.run("import", twice.toString()).err())
        .contains("line 3.id: 'm-1' appears a second time");
    Path newer =
        Files.writeString(
            dir.resolve("newer.jsonl"), header.replace("1,", "2,") + "\n" + good + "\n");
    assertThat(cli.run("import", newer.toString()).err())
        .contains("line 1.version: is 2, but this Engram reads version 1");
    assertThat(cli.run("import", broken.toString(), "--infer", "--format", "engram-jsonl").err())
        .contains("infer: applies to messages");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();

    Path tooLong =
        Files.writeString(
            dir.resolve("long.jsonl"),
            header
                + "\n"
                + good
                + "\n"
                + good.replace("m-1", "m-2")
                    .replace("\"memory\":\"fine\"", "\"memory\":\"" + "x".repeat(1_048_577) + "\"")
                + "\n");
    Cli.Result r3 = cli.run("import", tooLong.toString(), "--batch-size", "5");
    assertThat(r3.exitCode()).isEqualTo(2);
    assertThat(r3.err())
        .contains(
            "line 3.memory: is 1048577 characters long; the limit is 1048576 (nothing of line 2"
                + " to line 3 was written)");
    assertThat(cli.run("get", "m-1").exitCode()).isEqualTo(2);
  }

  @Test
  void aBatchThatFailsMidFileStopsTheImportAtItsLineAndARerunCompletesIt() throws Exception {
    String header =
        "{\"format\":\"engram-memories\",\"version\":1,\"tenant\":\"default\",\"scope\":null}";
    StringBuilder file = new StringBuilder(header).append('\n');
    int records = 23;
    for (int i = 1; i <= records; i++) {
      String text = "note number " + i + " about the garden";
      file.append("{\"id\":\"m-")
          .append(i)
          .append("\",\"memory\":\"")
          .append(i == 16 ? "x".repeat(1_048_577) : text)
          .append("\",\"user_id\":\"alice\",\"created_at\":\"2024-01-01T00:00:00Z\",")
          .append(
              "\"updated_at\":\"2024-01-01T00:00:00Z\",\"history\":[{\"event\":\"ADD\",\"new_memory\":\"")
          .append(text)
          .append("\",\"created_at\":\"2024-01-01T00:00:00Z\"}]}\n");
    }
    Cli cli = new Cli(dir.resolve("data"));
    Path bad = Files.writeString(dir.resolve("bad.jsonl"), file.toString());
    // batches of 3: m-16 (line 17) is in the sixth, lines 17 to 19
    Cli.Result failed = cli.run("import", bad.toString(), "--batch-size", "3");
    assertThat(failed.exitCode()).isEqualTo(2);
    assertThat(failed.err())
        .contains("line 17.memory: is 1048577 characters long")
        .contains("(nothing of line 17 to line 19 was written)");
    for (int i = 1; i <= 15; i++) {
      assertThat(cli.run("get", "m-" + i).exitCode())
          .as("m-%d, in a batch before the failed one", i)
          .isZero();
    }
    for (int i = 16; i <= records; i++) {
      assertThat(cli.run("get", "m-" + i).exitCode())
          .as("m-%d, in the failed batch or after it", i)
          .isEqualTo(2);
    }

    Path good =
        Files.writeString(
            dir.resolve("good.jsonl"),
            file.toString().replace("x".repeat(1_048_577), "note number 16 about the garden"));
    Cli.Result again = ok(cli.run("import", good.toString(), "--batch-size", "3", "--json"));
    assertThat(again.json().get("imported").asInt() + again.json().get("skipped").asInt())
        .isEqualTo(records);
    assertThat(again.json().get("skipped").asInt()).isEqualTo(15);
    JsonNode listed = cli.run("list", "--user-id", "alice", "--json").json();
    assertThat(listed.get("results")).hasSize(records);
  }
}

package dev.engram.cli;

import static dev.engram.cli.CrudCommandsTest.ids;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * engram import: JSON Lines and LoCoMo files, with per-line scopes, session dates, dia_ids and
 * speakers.
 */
class ImportCommandTest extends CliTestCase {
  @Test
  void importsJsonLinesWithPerLineScopeOverrides() {
    Cli.Result r =
        cli.run(
            "import", Cli.resource("messages.jsonl").toString(), "--user-id", "alice", "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode summary = r.json();
    assertThat(summary.get("messages").asInt()).isEqualTo(4);
    assertThat(summary.get("added").asInt()).isEqualTo(4);
    assertThat(summary.get("unchanged").asInt()).isZero();
    assertThat(summary.get("scopes").toString())
        .isEqualTo("[\"run_id=r7&user_id=bob\",\"user_id=alice\"]");
    assertThat(r.err()).contains("import").contains("4/4");

    JsonNode alice = cli.run("list", "--user-id", "alice", "--json").json();
    assertThat(alice.get("results").findValuesAsText("memory"))
        .containsExactlyInAnyOrder(
            "I am allergic to peanuts",
            "Noted, I will avoid peanuts in recipes",
            "I play the cello in an orchestra");
    // The reply's source context holds the allergy, so the two tie in the fusion (dense ranks 1 and
    // 2, keyword
    // ranks 2 and 1); the tie goes to the memory nearer the query.
    JsonNode results =
        cli.run("search", "--user-id", "alice", "--json", "--top-k", "1", "peanut allergy")
            .json()
            .get("results");
    assertThat(results.findValuesAsText("memory")).containsExactly("I am allergic to peanuts");
    JsonNode peanuts = results.get(0);
    assertThat(peanuts.get("actor_id").asText()).isEqualTo("Alice");
    assertThat(peanuts.get("event_time").asText()).isEqualTo("2024-05-01T10:00:00Z");
    assertThat(peanuts.get("source_ids").toString()).isEqualTo("[\"m1\"]");
    assertThat(
            cli.run("list", "--user-id", "alice", "--json", "--filter", "{\"topic\":\"music\"}")
                .json()
                .get("results")
                .findValuesAsText("memory"))
        .containsExactly("I play the cello in an orchestra");

    JsonNode bob =
        cli.run("list", "--user-id", "bob", "--run-id", "r7", "--json").json().get("results");
    assertThat(bob.findValuesAsText("memory"))
        .containsExactly("Bob here: I collect vintage cameras");
  }

  @Test
  void importsLocomoWithOneScopePerConversationAndSessionDates() {
    Cli.Result r =
        cli.run("import", Cli.resource("locomo-mini.json").toString(), "--format", "locomo");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out().lines().toList())
        .containsExactly(
            "imported 7 messages (2 conversations, 3 sessions) into 2 scopes: 7 added, 0 updated, 0 deleted,"
                + " 0 unchanged",
            "  user_id=mini-1",
            "  user_id=mini-2");

    JsonNode page = cli.run("list", "--user-id", "mini-1", "--json").json();
    assertThat(page.get("total").asInt()).isEqualTo(5);
    JsonNode kiwi =
        cli.run("search", "--user-id", "mini-1", "--json", "--top-k", "1", "name of the parrot")
            .json()
            .get("results")
            .get(0);
    assertThat(kiwi.get("memory").asText())
        .isEqualTo("Hi Omar! I just adopted a parrot named Kiwi.");
    assertThat(kiwi.get("actor_id").asText()).isEqualTo("Nadia");
    assertThat(kiwi.get("role").asText()).isEqualTo("user");
    assertThat(kiwi.get("source_ids").toString()).isEqualTo("[\"D1:1\"]");
    assertThat(kiwi.get("event_time").asText()).isEqualTo("2023-05-08T13:56:00Z");

    JsonNode session2 =
        cli.run(
                "list",
                "--user-id",
                "mini-1",
                "--json",
                "--filter",
                "{\"event_time\":{\"gte\":\"2023-06-01\"}}")
            .json();
    assertThat(session2.get("results").findValues("source_ids"))
        .map(JsonNode::toString)
        .containsExactlyInAnyOrder("[\"D2:1\"]", "[\"D2:2\"]");
    assertThat(session2.get("results").findValuesAsText("memory"))
        .containsExactlyInAnyOrder(
            "I signed up for a pottery class in Marseille.",
            "Nice, I am still teaching chemistry at the high school.");
    assertThat(session2.get("results").findValuesAsText("event_time"))
        .containsOnly("2023-06-20T10:04:00Z");

    JsonNode lyon = cli.run("list", "--user-id", "mini-2", "--json").json().get("results");
    assertThat(lyon.findValuesAsText("event_time")).containsOnly("2023-02-01T00:48:00Z");
  }

  @Test
  void sampleOptionSelectsConversationsAndFormatIsGuessedFromTheName() throws Exception {
    Path copy = Files.copy(Cli.resource("locomo-mini.json"), dir.resolve("conversations.json"));
    Cli.Result r =
        cli.run("import", copy.toString(), "--sample", "mini-2", "--agent-id", "helper", "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.json().get("messages").asInt()).isEqualTo(2);
    assertThat(r.json().get("scopes").toString()).isEqualTo("[\"agent_id=helper&user_id=mini-2\"]");
    assertThat(cli.run("list", "--user-id", "mini-1", "--json").json().get("total").asInt())
        .isZero();

    Cli.Result missing = cli.run("import", copy.toString(), "--sample", "mini-9");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err()).contains("sample: no conversation with sample_id mini-9 in the file");
  }

  @Test
  void reimportingWithInferLeavesKnownFactsUnchanged() {
    Path file = Cli.resource("locomo-mini.json");
    JsonNode first =
        cli.run("import", file.toString(), "--sample", "mini-2", "--infer", "--json").json();
    int facts = first.get("added").asInt();
    assertThat(facts).isPositive();
    JsonNode again =
        cli.run("import", file.toString(), "--sample", "mini-2", "--infer", "--json").json();
    assertThat(again.get("added").asInt()).isZero();
    assertThat(again.get("unchanged").asInt()).isEqualTo(facts);
    assertThat(ids(cli.run("list", "--user-id", "mini-2", "--json").json())).hasSize(facts);
  }

  @Test
  void badLinesAreReportedWithTheirNumberAndNothingIsWritten() throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("bad.jsonl"),
            "{\"role\":\"user\",\"content\":\"fine\"}\n{\"role\":\"user\",\"content\":\"\"}\n");
    Cli.Result r = cli.run("import", file.toString(), "--user-id", "alice");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo("engram import: line 2.content: must not be empty" + System.lineSeparator());
    assertThat(r.out()).isEmpty();
    assertThat(Files.exists(dir.resolve("data"))).isFalse();

    Path noScope =
        Files.writeString(dir.resolve("noscope.jsonl"), "{\"role\":\"user\",\"content\":\"x\"}\n");
    Cli.Result r2 = cli.run("import", noScope.toString());
    assertThat(r2.exitCode()).isEqualTo(2);
    assertThat(r2.err())
        .contains("line 1: scope: at least one of user_id, agent_id or run_id is required");

    Path badDate =
        Files.writeString(
            dir.resolve("bad-date.json"),
            "[{\"sample_id\":\"x\",\"conversation\":{"
                + "\"session_1_date_time\":\"yesterday\",\"session_1\":[{\"speaker\":\"A\",\"dia_id\":\"D1:1\","
                + "\"text\":\"hi\"}]}}]");
    Cli.Result r3 = cli.run("import", badDate.toString());
    assertThat(r3.exitCode()).isEqualTo(2);
    assertThat(r3.err())
        .contains(
            "samples[0].conversation.session_1_date_time: 'yesterday' is not a LoCoMo date"
                + " like '1:56 pm on 8 May, 2023'");
    assertThat(List.of(r2.out(), r3.out())).containsOnly("");
  }

  @Test
  void aMessageOverTheLimitStopsTheImportAtItsLineOrIsSkippedWithOnInvalidSkip() throws Exception {
    String tooLong = "x".repeat(1_048_577);
    Path file =
        Files.writeString(
            dir.resolve("long.jsonl"),
            "{\"role\":\"user\",\"content\":\"I play the cello\"}\n"
                + "{\"role\":\"user\",\"content\":\""
                + tooLong
                + "\"}\n"
                + "{\"role\":\"user\",\"content\":\"I live in Lisbon\"}\n"
                + "not json\n");
    Cli.Result stop = cli.run("import", file.toString(), "--user-id", "alice", "--batch-size", "1");
    assertThat(stop.exitCode()).isEqualTo(2);
    assertThat(stop.err()).contains("engram import: line 4: ").doesNotContain("line 2");
    Path longOnly =
        Files.writeString(
            dir.resolve("long-only.jsonl"), Files.readString(file).replace("not json\n", ""));
    Cli.Result stop2 =
        cli.run("import", longOnly.toString(), "--user-id", "alice", "--batch-size", "1");
    assertThat(stop2.exitCode()).isEqualTo(2);
    assertThat(stop2.err())
        .contains(
            "engram import: line 2.content: is 1048577 characters long; the limit is 1048576"
                + " (nothing was imported; --on-invalid=skip imports the other lines)");
    // Nothing half-written: the line before the long one is not in the store either.
    assertThat(cli.run("list", "--user-id", "alice", "--json").json().get("results")).isEmpty();

    Cli.Result skip =
        cli.run("import", file.toString(), "--user-id", "alice", "--on-invalid=skip", "--json");
    assertThat(skip.exitCode()).as(skip.err()).isZero();
    assertThat(skip.err())
        .contains("engram import: skipped line 4: ")
        .contains(
            "engram import: skipped line 2.content: is 1048577 characters long; the limit is"
                + " 1048576");
    assertThat(skip.json().get("messages").asInt()).isEqualTo(2);
    assertThat(skip.json().get("skipped_lines").asInt()).isEqualTo(2);
    assertThat(
            cli.run("list", "--user-id", "alice", "--json")
                .json()
                .get("results")
                .findValuesAsText("memory"))
        .containsExactlyInAnyOrder("I play the cello", "I live in Lisbon");

    Cli.Result text =
        cli.run("import", longOnly.toString(), "--user-id", "bob", "--on-invalid", "SKIP");
    assertThat(text.exitCode()).as(text.err()).isZero();
    assertThat(text.out()).contains("skipped 1 invalid line (named on stderr)");

    Cli.Result records =
        cli.run("import", longOnly.toString(), "--format", "mem0", "--on-invalid=skip");
    assertThat(records.exitCode()).isEqualTo(2);
    assertThat(records.err()).contains("on_invalid: skip applies to JSON Lines of messages");
    Cli.Result unknown = cli.run("import", longOnly.toString(), "--on-invalid=ignore");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err()).contains("expected stop or skip");
  }
}

package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Hashes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * add, get, list, update, delete, delete-all, history and purge-expired on the real store and
 * embedder.
 */
class CrudCommandsTest extends CliTestCase {
  private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

  static List<String> keys(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void addPrintsOneLinePerEventAndGetShowsEveryField() {
    Cli.Result added =
        cli.run(
            "add",
            "--user-id",
            "alice",
            "--no-infer",
            "--name",
            "Alice",
            "--timestamp",
            "2024-05-01T10:00:00Z",
            "--metadata",
            "{\"topic\":\"travel\"}",
            "--expires",
            "2099-01-01",
            "I moved to Lisbon");
    assertThat(added.exitCode()).isZero();
    assertThat(added.out()).matches("ADD     (" + UUID + ")  I moved to Lisbon\\R");
    String id = added.out().substring(8, 44);

    JsonNode item = cli.run("get", "--json", id).json();
    assertThat(keys(item))
        .containsExactly(
            "id",
            "memory",
            "hash",
            "metadata",
            "created_at",
            "updated_at",
            "user_id",
            "actor_id",
            "role",
            "event_time",
            "expiration_date");
    assertThat(item.get("id").asText()).isEqualTo(id);
    assertThat(item.get("memory").asText()).isEqualTo("I moved to Lisbon");
    assertThat(item.get("hash").asText()).isEqualTo(Hashes.md5("I moved to Lisbon"));
    assertThat(item.get("metadata").toString()).isEqualTo("{\"topic\":\"travel\"}");
    assertThat(item.get("user_id").asText()).isEqualTo("alice");
    assertThat(item.get("actor_id").asText()).isEqualTo("Alice");
    assertThat(item.get("role").asText()).isEqualTo("user");
    assertThat(item.get("event_time").asText()).isEqualTo("2024-05-01T10:00:00Z");
    assertThat(item.get("expiration_date").asText()).isEqualTo("2099-01-01");
    assertThat(Instant.parse(item.get("created_at").asText()))
        .isEqualTo(Instant.parse(item.get("updated_at").asText()));

    Cli.Result text = cli.run("get", id);
    assertThat(text.exitCode()).isZero();
    assertThat(text.out().lines().toList())
        .contains(
            field("id", id),
            field("memory", "I moved to Lisbon"),
            field("metadata", "{\"topic\":\"travel\"}"),
            field("user_id", "alice"),
            field("actor_id", "Alice"),
            field("role", "user"),
            field("event_time", "2024-05-01T10:00:00Z"),
            field("expiration_date", "2099-01-01"));
  }

  /**
   * The user report: without --timestamp, "Yesterday" stayed unresolved. A message without a time
   * was said when it was received, so the add resolves it against the current date, as it does
   * against --timestamp.
   */
  @Test
  void addWithoutTimestampResolvesRelativeDatesAgainstTheTimeOfTheAdd() {
    java.time.format.DateTimeFormatter day =
        java.time.format.DateTimeFormatter.ofPattern("d MMMM uuuu", java.util.Locale.ENGLISH);
    Instant before = Instant.now();
    JsonNode added =
        cli.run(
                "add",
                "--user-id",
                "bob",
                "--name",
                "Bob",
                "--json",
                "Yesterday I adopted a puppy called Max")
            .json();
    Instant after = Instant.now();
    List<String> expected = new ArrayList<>();
    for (Instant at : List.of(before, after)) {
      expected.add(
          "Yesterday ("
              + day.format(java.time.LocalDate.ofInstant(at, java.time.ZoneOffset.UTC).minusDays(1))
              + ") Bob adopted a puppy called Max");
    }
    JsonNode event = added.get("results").get(0);
    assertThat(event.get("memory").asText()).isIn(expected);
    Instant eventTime =
        Instant.parse(
            cli.run("get", "--json", event.get("id").asText()).json().get("event_time").asText());
    assertThat(eventTime)
        .isBetween(before.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), after);

    JsonNode timed =
        cli.run(
                "add",
                "--user-id",
                "bob",
                "--name",
                "Bob",
                "--json",
                "--timestamp",
                "2026-12-01T10:00:00Z",
                "Yesterday I adopted a kitten called Tom")
            .json();
    assertThat(timed.get("results").get(0).get("memory").asText())
        .isEqualTo("Yesterday (30 November 2026) Bob adopted a kitten called Tom");
  }

  @Test
  void addWithAssistantReplyGivesMem0ShapedEvents() {
    JsonNode r =
        cli.run(
                "add",
                "--user-id",
                "alice",
                "--no-infer",
                "--json",
                "I have a dog called Rex",
                "--assistant",
                "Rex is a lovely name")
            .json();
    assertThat(keys(r)).containsExactly("results");
    JsonNode results = r.get("results");
    assertThat(results).hasSize(2);
    assertThat(keys(results.get(0))).containsExactly("id", "memory", "event", "actor_id", "role");
    assertThat(results.get(0).get("memory").asText()).isEqualTo("I have a dog called Rex");
    assertThat(results.get(0).get("event").asText()).isEqualTo("ADD");
    assertThat(results.get(0).get("actor_id").isNull()).isTrue();
    assertThat(results.get(0).get("role").asText()).isEqualTo("user");
    assertThat(results.get(1).get("memory").asText()).isEqualTo("Rex is a lovely name");
    assertThat(results.get(1).get("role").asText()).isEqualTo("assistant");
  }

  @Test
  void listPagesNewestFirstWithTotalsAndFilters() {
    String a = cli.addVerbatim("alice", "First fact", "--metadata", "{\"n\":1}");
    String b = cli.addVerbatim("alice", "Second fact", "--metadata", "{\"n\":2}");
    String c = cli.addVerbatim("alice", "Third fact", "--metadata", "{\"n\":3}");
    cli.addVerbatim("bob", "Bob's fact");

    JsonNode page = cli.run("list", "--user-id", "alice", "--limit", "2", "--json").json();
    assertThat(keys(page)).containsExactly("results", "total", "offset");
    assertThat(ids(page)).containsExactly(c, b);
    assertThat(page.get("total").asLong()).isEqualTo(3);
    assertThat(page.get("offset").asInt()).isZero();
    assertThat(ids(cli.run("list", "--user-id", "alice", "--offset", "2", "--json").json()))
        .containsExactly(a);
    assertThat(
            ids(
                cli.run("list", "--user-id", "alice", "--json", "--filter", "{\"n\":{\"gte\":2}}")
                    .json()))
        .containsExactly(c, b);
    assertThat(
            ids(
                cli.run(
                        "list",
                        "--json",
                        "--filter",
                        "{\"user_id\":\"alice\",\"n\":{\"in\":[1,3]}}")
                    .json()))
        .containsExactly(c, a);

    Cli.Result text = cli.run("list", "--user-id", "alice", "--limit", "2");
    assertThat(text.out().lines().toList()).hasSize(3);
    assertThat(text.out().lines().toList().get(0)).startsWith(c + "  ").endsWith("  Third fact");
    assertThat(text.out().lines().toList().get(2)).isEqualTo("(1-2 of 3)");
    assertThat(cli.run("list", "--user-id", "carol").out())
        .isEqualTo("no memories" + System.lineSeparator());
  }

  @Test
  void updateDeleteAndHistoryKeepTheAuditTrail() {
    String id = cli.addVerbatim("alice", "I moved to Lisbon", "--name", "Alice");

    JsonNode updated =
        cli.run(
                "update",
                id,
                "--text",
                "I moved to Porto",
                "--metadata",
                "{\"topic\":\"home\"}",
                "--json")
            .json();
    assertThat(updated.get("memory").asText()).isEqualTo("I moved to Porto");
    assertThat(updated.get("hash").asText()).isEqualTo(Hashes.md5("I moved to Porto"));
    assertThat(updated.get("metadata").toString()).isEqualTo("{\"topic\":\"home\"}");

    Cli.Result deleted = cli.run("delete", id);
    assertThat(deleted.exitCode()).isZero();
    assertThat(deleted.out()).isEqualTo("deleted " + id + System.lineSeparator());
    assertThat(cli.run("get", id).exitCode()).isEqualTo(2);

    JsonNode history = cli.run("history", id, "--json").json();
    assertThat(history).hasSize(3);
    assertThat(keys(history.get(0)))
        .containsExactly(
            "id",
            "memory_id",
            "event",
            "old_memory",
            "new_memory",
            "actor_id",
            "role",
            "created_at",
            "pipeline");
    assertThat(history.findValuesAsText("pipeline")).containsExactly("raw", "update", "delete");
    assertThat(history.findValuesAsText("event")).containsExactly("ADD", "UPDATE", "DELETE");
    assertThat(history.get(0).get("old_memory").isNull()).isTrue();
    assertThat(history.get(0).get("new_memory").asText()).isEqualTo("I moved to Lisbon");
    assertThat(history.get(0).get("actor_id").asText()).isEqualTo("Alice");
    assertThat(history.get(1).get("old_memory").asText()).isEqualTo("I moved to Lisbon");
    assertThat(history.get(1).get("new_memory").asText()).isEqualTo("I moved to Porto");
    assertThat(history.get(2).get("old_memory").asText()).isEqualTo("I moved to Porto");
    assertThat(history.get(2).get("new_memory").isNull()).isTrue();
    assertThat(history.get(0).get("id").asLong()).isLessThan(history.get(1).get("id").asLong());
    assertThat(history.findValuesAsText("memory_id")).containsOnly(id);

    List<String> lines = cli.run("history", id).out().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0))
        .matches("#\\d+  \\S+  ADD     \"I moved to Lisbon\"  \\(Alice, user\\)  by raw");
    assertThat(lines.get(1))
        .matches("#\\d+  \\S+  UPDATE  \"I moved to Lisbon\" -> \"I moved to Porto\".*");
    assertThat(lines.get(2))
        .matches("#\\d+  \\S+  DELETE  \"I moved to Porto\" \\(deleted\\).*  by delete");
  }

  @Test
  void deleteAllRemovesOnlyTheScope() {
    cli.addVerbatim("alice", "One");
    cli.addVerbatim("alice", "Two");
    String bobs = cli.addVerbatim("bob", "Three");
    Cli.Result r = cli.run("delete-all", "--user-id", "alice");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).isEqualTo("deleted 2 memories of user_id=alice" + System.lineSeparator());
    assertThat(cli.run("list", "--user-id", "alice", "--json").json().get("total").asLong())
        .isZero();
    assertThat(ids(cli.run("list", "--user-id", "bob", "--json").json())).containsExactly(bobs);
    assertThat(cli.run("delete-all", "--user-id", "bob", "--json").json().get("deleted").asInt())
        .isEqualTo(1);
  }

  @Test
  void expiredMemoriesAreHiddenUntilPurged() {
    String id = cli.addVerbatim("alice", "Temporary fact");
    String kept = cli.addVerbatim("alice", "Lasting fact");
    assertThat(cli.run("update", id, "--expires", "2000-01-01").exitCode()).isZero();
    assertThat(ids(cli.run("list", "--user-id", "alice", "--json").json())).containsExactly(kept);
    assertThat(ids(cli.run("list", "--user-id", "alice", "--include-expired", "--json").json()))
        .containsExactly(kept, id);
    assertThat(cli.run("update", id, "--no-expiry", "--json").json().has("expiration_date"))
        .isFalse();
    assertThat(cli.run("update", id, "--expires", "2000-01-01").exitCode()).isZero();
    Cli.Result purged = cli.run("purge-expired");
    assertThat(purged.out()).isEqualTo("purged 1 expired memory" + System.lineSeparator());
    assertThat(cli.run("get", id).exitCode()).isEqualTo(2);
    assertThat(cli.run("get", kept).exitCode()).isZero();
  }

  @Test
  void resetNeedsConfirmationThenEmptiesTheStore() {
    String id = cli.addVerbatim("alice", "Something");
    Cli.Result refused = cli.run("reset");
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.err()).contains("pass --yes to confirm");
    assertThat(cli.run("get", id).exitCode()).isZero();
    assertThat(cli.run("reset", "--yes").exitCode()).isZero();
    assertThat(cli.run("list", "--user-id", "alice", "--json").json().get("total").asLong())
        .isZero();
  }

  static String field(String name, String value) {
    return String.format(java.util.Locale.ROOT, "%-17s%s", name + ":", value);
  }

  static List<String> ids(JsonNode page) {
    return page.get("results").findValuesAsText("id");
  }
}

package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.embedded.EmbeddedStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Bad input exits with 2 and a one-line reason on stderr (no stack trace), and writes nothing. */
class BadInputTest extends CliTestCase {
  private void assertBadInput(Cli.Result r, String message) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message).doesNotContain("\tat ").doesNotContain("Exception");
  }

  @Test
  void blankOrMissingScope() {
    assertBadInput(
        cli.run("add", "--user-id", "  ", "hello"),
        "engram add: user_id: must not be empty or blank");
    assertBadInput(
        cli.run("add", "--user-id", "al ice", "hello"), "user_id: 'al ice' contains whitespace");
    assertBadInput(
        cli.run("add", "hello"),
        "engram add: scope: at least one of user_id, agent_id or run_id is required");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
  }

  @Test
  void malformedJsonOptions() {
    assertBadInput(
        cli.run("add", "--user-id", "alice", "--metadata", "{topic: travel}", "hello"),
        "engram add: metadata: malformed JSON: ");
    assertBadInput(
        cli.run("add", "--user-id", "alice", "--metadata", "[1]", "hello"),
        "metadata: must be a JSON object, got array");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
    cli.addVerbatim("alice", "hello");
    assertBadInput(
        cli.run("search", "--user-id", "alice", "--filter", "{\"topic\":", "hello"),
        "engram search: filters: malformed JSON: ");
    assertBadInput(
        cli.run("list", "--user-id", "alice", "--filter", "{\"topic\":"),
        "filters: malformed JSON: ");
    assertThat(cli.run("list", "--user-id", "alice", "--json").json().get("total").asInt())
        .isEqualTo(1);
  }

  @Test
  void unknownFilterOperatorAndConflictingScope() {
    cli.addVerbatim("alice", "hello");
    Cli.Result r =
        cli.run(
            "search", "--user-id", "alice", "--filter", "{\"age\":{\"between\":[1,2]}}", "hello");
    assertBadInput(r, "engram search: ");
    assertThat(r.err()).contains("between");
    assertBadInput(
        cli.run("search", "--user-id", "bob", "--filter", "{\"user_id\":\"alice\"}", "hello"),
        "user_id: --user-id 'bob' and the filter's user_id 'alice' differ");
  }

  @Test
  void badOptionValuesAreParameterErrors() {
    Cli.Result time = cli.run("add", "--user-id", "alice", "--timestamp", "yesterday", "hello");
    assertThat(time.exitCode()).isEqualTo(2);
    assertThat(time.err()).contains("'yesterday' is not an ISO-8601 date or date-time");
    assertThat(cli.run("add", "--user-id", "alice", "--expires", "2025-02-30", "hello").exitCode())
        .isEqualTo(2);
    assertThat(cli.run("search", "--user-id", "alice", "--top-k", "many", "x").exitCode())
        .isEqualTo(2);
    assertThat(cli.run("add", "--user-id", "alice", "--bogus", "hello").err())
        .contains("Unknown option: '--bogus'");
    assertThat(Cli.raw().exitCode()).isEqualTo(2);
    assertThat(Cli.raw("frobnicate").exitCode()).isEqualTo(2);
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
  }

  @Test
  void outOfRangeValuesNameTheField() {
    cli.addVerbatim("alice", "hello");
    assertBadInput(
        cli.run("search", "--user-id", "alice", "--top-k", "0", "x"),
        "top_k: must be between 1 and 1000, got 0");
    assertBadInput(
        cli.run("search", "--user-id", "alice", "--threshold", "1.5", "x"),
        "threshold: must be a number in [0, 1], got 1.5");
    assertBadInput(cli.run("search", "--user-id", "alice", " "), "query: must not be empty");
    assertBadInput(
        cli.run("list", "--user-id", "alice", "--limit", "0"), "limit: must be between 1 and");
    assertBadInput(cli.run("update", "some-id"), "update: nothing to change");
    assertBadInput(
        cli.run("update", "some-id", "--expires", "2030-01-01", "--no-expiry"),
        "--expires and --no-expiry exclude each other");
    assertBadInput(
        cli.run("add", "--user-id", "alice", "--embedder", "gpt-embed", "hello"),
        "embedder: unknown in-process model 'gpt-embed'");
  }

  @Test
  void unknownIdsAndMissingDataDirectory() {
    assertBadInput(cli.run("get", "0b8f7c9e-0000-4000-8000-000000000000"), "no data directory at");
    assertBadInput(cli.run("list", "--user-id", "alice"), "no data directory at");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
    cli.addVerbatim("alice", "hello");
    assertBadInput(
        cli.run("get", "0b8f7c9e-0000-4000-8000-000000000000"),
        "engram get: memory_id: no memory with id '0b8f7c9e-0000-4000-8000-000000000000'");
    assertBadInput(cli.run("delete", "nope"), "memory_id: no memory with id 'nope'");
    assertBadInput(cli.run("update", "nope", "--text", "x"), "memory_id: no memory with id 'nope'");
    assertThat(cli.run("history", "nope").out())
        .isEqualTo("no history for nope" + System.lineSeparator());
  }

  @Test
  void missingOrMalformedImportFiles() throws Exception {
    assertBadInput(
        cli.run("import", dir.resolve("absent.jsonl").toString(), "--user-id", "alice"),
        "engram import: file: '" + dir.resolve("absent.jsonl") + "' does not exist");
    assertBadInput(
        cli.run("import", dir.toString(), "--format", "jsonl", "--user-id", "alice"),
        "is not a readable file");
    Path json = Files.writeString(dir.resolve("broken.json"), "[{\"sample_id\": ");
    assertBadInput(cli.run("import", json.toString()), "file: malformed JSON in '" + json + "'");
    Path txt = Files.writeString(dir.resolve("notes.txt"), "hello");
    assertBadInput(
        cli.run("import", txt.toString(), "--user-id", "alice"),
        "format: cannot tell the format of '"
            + txt
            + "'; pass --format jsonl, locomo, engram-jsonl or mem0");
    assertThat(cli.run("import", txt.toString(), "--format", "csv").exitCode()).isEqualTo(2);
    assertBadInput(
        cli.run("import", Cli.resource("locomo-mini.json").toString(), "--user-id", "a"),
        "user_id: a LoCoMo import uses each conversation's sample_id as user_id");
    assertThat(Files.exists(dir.resolve("data"))).isFalse();
  }

  @Test
  void otherFailuresExitWithOneAndAMessage() throws Exception {
    cli.addVerbatim("alice", "hello");
    Cli.Result mismatch = cli.run("list", "--user-id", "alice", "--embedder", "all-minilm-l6-v2-q");
    assertThat(mismatch.exitCode()).isEqualTo(1);
    assertThat(mismatch.err())
        .startsWith(
            "engram list: the data directory was written with embedding model"
                + " 'bge-small-en-v1.5-q'")
        .doesNotContain("\tat ");

    try (EmbeddedStorage held = EmbeddedStorage.open(dir.resolve("data"), 384)) {
      Cli.Result locked = cli.run("list", "--user-id", "alice");
      assertThat(locked.exitCode()).isEqualTo(1);
      assertThat(locked.err()).contains("is locked by another process").doesNotContain("\tat ");
    }
    assertThat(cli.run("list", "--user-id", "alice").exitCode()).isZero();
  }
}

package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * engram demo: offline ingestion of the built-in conversation and searches that find the right
 * turns.
 */
class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void printsEachQueryWithItsTopThreeResults() {
    Cli.Result r = Cli.raw("demo");
    assertThat(r.exitCode()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    // The offline extractor turns the 15 messages into 17 facts (some messages hold two).
    assertThat(lines.get(1))
        .isEqualTo(
            "extracted offline (no LLM: the offline extractor) into 17 memories of"
                + " user_id=demo in a temporary data directory.");
    for (String q : DemoConversation.QUERIES) {
      int at = lines.indexOf("> " + q);
      assertThat(at).as(q).isPositive();
      assertThat(lines.subList(at + 1, at + 4))
          .allMatch(
              l -> l.matches("  [123]\\. [01]\\.\\d{3}  \\[\\w+, " + "2023-\\d\\d-\\d\\d]  .+"));
    }
    int live = lines.indexOf("> Where does Maya live?");
    assertThat(lines.get(live + 1)).contains("Maya finally moved to Lisbon");
    assertThat(lines.get(lines.indexOf("> What job does Tom have?") + 1))
        .contains("Tom just started a new job as a nurse");
    // Both July plans are good answers: the wedding in Porto and the train booked for it.
    assertThat(lines.get(lines.indexOf("> What are the plans for July?") + 1))
        .contains("July")
        .contains("Porto");
  }

  @Test
  void keepsItsDataWhenGivenADataDirectoryAndReplacesItsScopeOnRerun() {
    Path data = dir.resolve("demo-data");
    Cli.Result first = Cli.raw("demo", "--data-dir", data.toString(), "--json");
    assertThat(first.exitCode()).as(first.err()).isZero();
    JsonNode o = first.json();
    assertThat(o.get("added").asInt()).isEqualTo(17);
    assertThat(o.get("searches")).hasSize(DemoConversation.QUERIES.size());
    assertThat(o.get("searches").get(0).get("results")).hasSize(3);
    assertThat(o.get("searches").get(0).get("results").toString())
        .contains("Maya finally moved to Lisbon");

    Cli.Result second = Cli.raw("demo", "--data-dir", data.toString());
    assertThat(second.exitCode()).isZero();
    assertThat(second.err()).contains("replaced 17 earlier demo memories");
    Cli cli = new Cli(data);
    assertThat(cli.run("list", "--user-id", "demo", "--json").json().get("total").asInt())
        .isEqualTo(17);
    JsonNode dog =
        cli.run("search", "--user-id", "demo", "--json", "--top-k", "1", "Maya's beagle").json();
    assertThat(dog.get("results").get(0).get("memory").asText()).contains("Maya's beagle Biscuit");
    assertThat(dog.get("results").get(0).get("actor_id").asText()).isEqualTo("Maya");
  }
}

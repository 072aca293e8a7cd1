package dev.engram.cli;

import static dev.engram.cli.CrudCommandsTest.keys;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * engram search: relevance, scope, filters from options and from --filter, explain, threshold (and
 * the default one against an off-topic query), the token budget, text output. Runs the default
 * in-process embedder (bge-small).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchCommandTest {
  Cli cli;
  String lisbon;
  String dog;
  String job;

  @BeforeAll
  void addMemories(@TempDir Path dir) {
    cli = new Cli(dir);
    lisbon =
        cli.addVerbatim(
            "alice", "I moved to Lisbon last spring", "--metadata", "{\"topic\":\"travel\"}");
    dog =
        cli.addVerbatim(
            "alice",
            "My dog Rex loves long walks on the beach",
            "--metadata",
            "{\"topic\":\"pets\"}");
    job =
        cli.addVerbatim(
            "alice",
            "I work as a pastry chef in a small bakery",
            "--metadata",
            "{\"topic\":\"work\"}");
    cli.addVerbatim(
        "bob", "I moved to Lisbon too, near the castle", "--metadata", "{\"topic\":\"travel\"}");
  }

  private JsonNode search(String... args) {
    Cli.Result r = cli.run("search", args);
    assertThat(r.exitCode()).as(r.err()).isZero();
    return r.json();
  }

  @Test
  void findsTheRelevantMemoryInsideTheScopeOnly() {
    JsonNode results =
        search("--user-id", "alice", "--json", "where does alice live").get("results");
    assertThat(results).hasSize(3);
    assertThat(results.get(0).get("id").asText()).isEqualTo(lisbon);
    assertThat(results.findValuesAsText("user_id")).containsOnly("alice");
    // event_time: a message given without a time was said when the add ran
    assertThat(keys(results.get(0)))
        .containsExactly(
            "id",
            "memory",
            "hash",
            "metadata",
            "score",
            "created_at",
            "updated_at",
            "user_id",
            "role",
            "event_time");
    List<Double> scores = new ArrayList<>();
    results.forEach(h -> scores.add(h.get("score").asDouble()));
    assertThat(scores)
        .isSortedAccordingTo((x, y) -> Double.compare(y, x))
        .allMatch(s -> s >= 0 && s <= 1);

    assertThat(
            search("--user-id", "alice", "--json", "what is her pet's name")
                .get("results")
                .get(0)
                .get("id")
                .asText())
        .isEqualTo(dog);
    assertThat(
            search("--user-id", "alice", "--json", "--top-k", "1", "which job does she have")
                .get("results")
                .findValuesAsText("id"))
        .containsExactly(job);
  }

  @Test
  void filtersNarrowAndMayCarryTheScope() {
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--filter",
                    "{\"topic\":\"pets\"}",
                    "does alice have a dog")
                .get("results")
                .findValuesAsText("id"))
        .containsExactly(dog);
    assertThat(
            search(
                    "--json",
                    "--filter",
                    "{\"user_id\":\"alice\",\"topic\":{\"in\":[\"travel\",\"work\"]}}",
                    "moving")
                .get("results")
                .findValuesAsText("id"))
        .containsExactlyInAnyOrder(lisbon, job);
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--filter",
                    "{\"NOT\":[{\"topic\":\"travel\"}]}",
                    "does alice have a dog")
                .get("results")
                .findValuesAsText("id"))
        .containsExactlyInAnyOrder(dog, job);
    // the only memory about Lisbon filtered out, nothing in reach is likely relevant: the
    // off-topic cut returns nothing
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--filter",
                    "{\"NOT\":[{\"topic\":\"travel\"}]}",
                    "Lisbon")
                .get("results"))
        .isEmpty();
  }

  @Test
  void rerankWithoutAConfiguredRerankerKeepsTheFusedOrderAndReportsNoRerankScore() {
    JsonNode plain =
        search("--user-id", "alice", "--json", "--explain", "moving to Lisbon").get("results");
    JsonNode reranked =
        search("--user-id", "alice", "--json", "--explain", "--rerank", "moving to Lisbon")
            .get("results");

    assertThat(reranked.findValuesAsText("id"))
        .isEqualTo(plain.findValuesAsText("id"))
        .isNotEmpty();
    assertThat(reranked.findValues("rerank_score")).isEmpty();
  }

  @Test
  void explainAddsScoreDetailsAndThresholdCuts() {
    JsonNode top =
        search("--user-id", "alice", "--json", "--explain", "Lisbon").get("results").get(0);
    assertThat(top.get("id").asText()).isEqualTo(lisbon);
    assertThat(keys(top.get("score_details")))
        .containsExactly(
            "semantic_score", "semantic_rank", "bm25_score", "bm25_rank", "fused_score", "fusion");
    assertThat(top.get("score_details").get("fusion").asText()).isEqualTo("cosine");
    assertThat(top.get("score_details").get("bm25_rank").asInt()).isEqualTo(1);
    assertThat(top.get("score_details").get("bm25_score").asDouble()).isPositive();

    double best = top.get("score").asDouble();
    JsonNode cut =
        search("--user-id", "alice", "--json", "--threshold", Double.toString(best), "Lisbon")
            .get("results");
    assertThat(cut.findValuesAsText("id")).contains(lisbon);
    cut.forEach(h -> assertThat(h.get("score").asDouble()).isGreaterThanOrEqualTo(best));
  }

  @Test
  void textOutputRanksHitsWithScores() {
    Cli.Result r = cli.run("search", "--user-id", "alice", "--top-k", "2", "--explain", "Lisbon");
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0))
        .matches(
            " 1\\. [01]\\.\\d{4}  "
                + lisbon
                + "  \\[\\d{4}-\\d{2}-\\d{2}\\]  I moved to Lisbon last spring");
    assertThat(lines.get(1))
        .matches(
            "      semantic \\d\\.\\d{4} \\(#\\d\\)  bm25 \\d+\\.\\d{4} \\(#1\\)"
                + "  fused \\d\\.\\d{4} \\(cosine\\)");
    assertThat(lines.get(2)).startsWith(" 2. ");
    assertThat(cli.run("search", "--user-id", "nobody", "Lisbon").out())
        .isEqualTo("no memories found" + System.lineSeparator());
  }

  @Test
  void maxTokensKeepsTheBestMemoriesThatFit() {
    // cl100k tokens: "I moved to Lisbon last spring" 6, the others 9 and 10 (25 together; the
    // estimate would say 29)
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--threshold",
                    "0",
                    "--max-tokens",
                    "8",
                    "Lisbon")
                .get("results")
                .findValuesAsText("id"))
        .containsExactly(lisbon);
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--threshold",
                    "0",
                    "--max-tokens",
                    "25",
                    "Lisbon")
                .get("results")
                .findValuesAsText("id"))
        .containsExactlyInAnyOrder(lisbon, dog, job);
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--threshold",
                    "0",
                    "--max-tokens",
                    "19",
                    "Lisbon")
                .get("results")
                .findValuesAsText("id"))
        .hasSize(2)
        .contains(lisbon);
    Cli.Result bad = cli.run("search", "--user-id", "alice", "--max-tokens", "0", "Lisbon");
    assertThat(bad.exitCode()).isNotZero();
    assertThat(bad.err()).contains("max_tokens");
  }

  @Test
  void anOffTopicQueryFindsNothingAtTheSuggestedThresholdWhileAnOnTopicOneFindsItsMemory() {
    String t = Double.toString(dev.engram.SearchRequest.SUGGESTED_THRESHOLD);
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--threshold",
                    t,
                    "which stock exchange lists semiconductor companies")
                .get("results"))
        .isEmpty();
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "--threshold",
                    t,
                    "quarterly tax filing deadlines for corporations")
                .get("results"))
        .isEmpty();
    assertThat(
            search("--user-id", "alice", "--json", "--threshold", t, "pastry chef job")
                .get("results")
                .findValuesAsText("id"))
        .startsWith(job); // first: the calibrated scale keeps what is likely enough, best first
    // without a threshold (the default, 0) the off-topic cut empties the same query too: no memory
    // of the scope is likely relevant to it (none holds its words, none is close)
    assertThat(
            search(
                    "--user-id",
                    "alice",
                    "--json",
                    "which stock exchange lists semiconductor companies")
                .get("results"))
        .isEmpty();
  }
}

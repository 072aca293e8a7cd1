package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * engram bench locomo on the project's mini fixture (one conversation of 7 turns, 5 scored
 * questions), with the default in-process embedder and top-k 10, more than any store holds: every
 * memory is retrieved, so the retrieval metrics follow from what is stored, whatever the ranking.
 */
class BenchCommandTest {
  private static final String DATA = Cli.benchMiniLocomo();

  @TempDir Path dir;

  @Test
  void rawRunPrintsJsonAndWritesReportMarkdownAndChart() throws Exception {
    Path out = dir.resolve("reports/raw.json");
    Cli.Result r = Cli.raw("bench", "locomo", "--data", DATA, "--json", "--out", out.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    // Progress: 7 turns + 5 questions + 7 turns per chunk size (7 sizes) + 7 turns embedded once
    // for the per-turn baselines = 68 steps.
    assertThat(r.err()).contains("68/68");
    JsonNode json = r.json();
    assertThat(json.get("mode").asText()).isEqualTo("raw");
    assertThat(json.get("scopes").asText()).isEqualTo("conversation");
    assertThat(json.get("top_k").asInt()).isEqualTo(10);
    assertThat(json.get("embedder").asText()).isEqualTo("bge-small-en-v1.5-q");
    assertThat(json.get("questions").asInt()).isEqualTo(5);
    assertThat(json.at("/overall/evidence_recall").asDouble()).isEqualTo(1.0);
    // Answer tokens in the raw turns: Pixel 1, Porto 1, {11, april, 2024} 0, 3 of 4, {2024} 0 ->
    // 2.75 / 5.
    assertThat(json.at("/overall/answer_token_recall").asDouble()).isEqualTo(0.55);
    // 15 RAG baselines and 6 per-turn ones (plain cosine and BM25 at top-10, 500 and 1,500 tokens)
    assertThat(json.get("baselines")).hasSize(21);
    // The whole fixture (99 tokens as "speaker: text" lines) is one RAG chunk at every size.
    List<JsonNode> rag = new ArrayList<>();
    json.get("baselines").forEach(b -> rag.add(b));
    rag.removeIf(b -> b.path("name").asText().contains("-turns"));
    assertThat(rag).hasSize(15);
    assertThat(rag)
        .allSatisfy(b -> assertThat(b.path("context_tokens_mean").asDouble()).isEqualTo(99.0));
    assertThat(MemoryJson.mapper().readTree(out.toFile())).isEqualTo(json);
    assertThat(Files.readString(dir.resolve("reports/raw.md")))
        .contains("| **overall** | 5 | 1.000 | 1.000 | 0.550 |")
        .contains("| full-context | 1.000 | 1.000 | 0.550 | 99 |");
    Document svg =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(Files.readAllBytes(dir.resolve("reports/raw.svg"))));
    assertThat(svg.getElementsByTagName("g").getLength()).isEqualTo(22);

    Path second = dir.resolve("reports/extract.json");
    Cli.Result e =
        Cli.raw(
            "bench",
            "locomo",
            "--data",
            DATA,
            "--mode",
            "extract",
            "--scopes",
            "speaker",
            "--no-baselines",
            "--out",
            second.toString(),
            "--compare",
            out.toString());
    assertThat(e.exitCode()).as(e.err()).isZero();
    // Chart: the extract run, the compared raw run, and the raw run's 21 baselines.
    Document both =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(
                new ByteArrayInputStream(
                    Files.readString(dir.resolve("reports/extract.svg"))
                        .getBytes(StandardCharsets.UTF_8)));
    assertThat(both.getElementsByTagName("g").getLength()).isEqualTo(23);
  }

  @Test
  void graphRunCountsTheRelationsAndSaysSoInTheReport() {
    Cli.Result r =
        Cli.raw(
            "bench",
            "locomo",
            "--data",
            DATA,
            "--mode",
            "observations",
            "--graph",
            "--no-baselines",
            "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = r.json();
    assertThat(json.get("graph").asBoolean()).isTrue();
    // The offline graph of the four observations (Ada-Pixel, Ben-Porto, Ada-Fridays) states the
    // memories' own
    // texts, and top-k 10 retrieves all four memories: no relation adds a context line, so the
    // figures are those
    // without the graph (LocomoGraphTest has the case where a relation reaches a memory beyond the
    // top-k).
    assertThat(json.at("/overall/relations_per_query").asDouble()).isEqualTo(0.0);
    assertThat(json.at("/overall/evidence_recall").asDouble()).isEqualTo(1.0);
    assertThat(json.at("/overall/answer_token_recall").asDouble()).isEqualTo(0.55);
    Cli.Result off =
        Cli.raw(
            "bench",
            "locomo",
            "--data",
            DATA,
            "--mode",
            "observations",
            "--no-baselines",
            "--json");
    assertThat(off.exitCode()).as(off.err()).isZero();
    assertThat(off.json().get("graph").asBoolean()).isFalse();
    assertThat(off.json().at("/overall/answer_token_recall").asDouble()).isEqualTo(0.55);
  }

  @Test
  void extractRunInTheSpeakerLayoutPrintsMarkdown() {
    Cli.Result r =
        Cli.raw(
            "bench",
            "locomo",
            "--data",
            DATA,
            "--mode",
            "EXTRACT",
            "--scopes",
            "speaker",
            "--no-baselines",
            "--data-dir",
            dir.resolve("work").toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
    // The offline extractor keeps five facts; all evidence is among them and the resolved date "(11
    // April 2024)"
    // carries the temporal answers: answer-token recall (1 + 1 + 1 + 0.75 + 1) / 5 = 0.95.
    assertThat(r.out())
        .contains("mode `extract`, scopes `speaker`, turns per add 2, top-k 10")
        .contains("| 2 (temporal) | 2 | 1.000 | 1.000 | 1.000 |")
        .contains("| **overall** | 5 | 1.000 | 1.000 | 0.950 |")
        .doesNotContain("| baseline |");
    assertThat(dir.resolve("work")).isEmptyDirectory();
  }

  @Test
  void badInputExitsWithTwo() throws Exception {
    assertBadInput(
        Cli.raw("bench", "locomo", "--data", dir.resolve("missing.json").toString()),
        "engram locomo: data: '" + dir.resolve("missing.json") + "' does not exist");
    Path broken = Files.writeString(dir.resolve("broken.json"), "[{\"sample_id\": ");
    assertBadInput(
        Cli.raw("bench", "locomo", "--data", broken.toString()), "data: malformed JSON in");
    assertBadInput(
        Cli.raw("bench", "locomo", "--data", DATA, "--mode", "graph"),
        "mode: unknown value 'graph' (expected one of raw, observations, extract, llm)");
    assertBadInput(
        Cli.raw("bench", "locomo", "--data", DATA, "--scopes", "user"), "scopes: unknown value");
    assertBadInput(
        Cli.raw("bench", "locomo", "--data", DATA, "--top-k", "0"),
        "top_k: must be between 1 and 1000, got 0");
    assertBadInput(
        Cli.raw("bench", "locomo", "--data", DATA, "--mode", "llm"),
        "mode: llm needs a language model and none is configured");
    assertBadInput(
        Cli.raw("bench", "locomo", "--data", DATA, "--compare", dir.resolve("no.json").toString()),
        "report: '" + dir.resolve("no.json") + "' does not exist");
    assertThat(Cli.raw("bench", "locomo").exitCode()).isEqualTo(2);
    assertThat(Cli.raw("bench").exitCode()).isEqualTo(2);
  }

  private static void assertBadInput(Cli.Result r, String message) {
    assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains(message).doesNotContain("\tat ");
  }
}

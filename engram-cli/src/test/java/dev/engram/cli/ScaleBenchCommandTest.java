package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** engram bench scale: a tiny run with the hashing embedder, its report, and bad options. */
class ScaleBenchCommandTest {
  @TempDir Path dir;

  @Test
  void tinyRunPrintsAndWritesTheJsonReportAndKeepsTheGivenDataDirectory() throws Exception {
    Path data = dir.resolve("data");
    Path out = dir.resolve("scale.json");
    Cli.Result r =
        Cli.raw(
            "bench",
            "scale",
            "--memories",
            "600",
            "--users",
            "3",
            "--batch",
            "250",
            "--queries",
            "5",
            "--data-dir",
            data.toString(),
            "--out",
            out.toString(),
            "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).contains("600/600");
    JsonNode json = r.json();
    assertThat(json.get("memories").asLong()).isEqualTo(600);
    assertThat(json.get("users").asInt()).isEqualTo(3);
    assertThat(json.get("memories_per_user").asLong()).isEqualTo(200);
    assertThat(json.get("embedder").asText()).isEqualTo("hashing-384");
    assertThat(json.at("/ingest/batch_ms/count").asInt()).isEqualTo(3);
    assertThat(json.at("/search_ms/count").asInt()).isEqualTo(5);
    assertThat(json.at("/reopen/memories").asLong()).isEqualTo(600);
    assertThat(json.at("/reopen/index_documents").asLong()).isEqualTo(600);
    assertThat(json.at("/per_user/min").asLong()).isEqualTo(200);
    assertThat(json.at("/per_user/max").asLong()).isEqualTo(200);
    assertThat(MemoryJson.mapper().readTree(out.toFile())).isEqualTo(json);
    assertThat(Files.isRegularFile(data.resolve("engram.db"))).isTrue();

    // --filled searches the kept directory again without ingesting
    Cli.Result again =
        Cli.raw(
            "bench",
            "scale",
            "--memories",
            "600",
            "--users",
            "3",
            "--queries",
            "4",
            "--data-dir",
            data.toString(),
            "--filled",
            "--json");
    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(again.err()).doesNotContain("600/600");
    assertThat(again.json().at("/embedded/memories").asLong()).isEqualTo(600);
    assertThat(again.json().at("/embedded/index_documents").asLong()).isEqualTo(600);
    assertThat(again.json().at("/embedded/search_ms/count").asInt()).isEqualTo(4);
    Cli.Result summary =
        Cli.raw(
            "bench",
            "scale",
            "--memories",
            "600",
            "--users",
            "3",
            "--queries",
            "4",
            "--data-dir",
            data.toString(),
            "--filled");
    assertThat(summary.out())
        .contains("embedded store, filled: 600 memories")
        .contains("(top 10, 4 queries)");
    // the options must be those of the run that filled it
    Cli.Result other =
        Cli.raw(
            "bench",
            "scale",
            "--memories",
            "900",
            "--users",
            "3",
            "--data-dir",
            data.toString(),
            "--filled");
    assertThat(other.exitCode()).isEqualTo(2);
    assertThat(other.err()).contains("holds 600 memories, not the 900 of --memories");
  }

  @Test
  void printsASummaryByDefault() {
    Cli.Result r = Cli.raw("bench", "scale", "--memories", "100", "--users", "2", "--queries", "3");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("memories 100 over 2 users (50 per user), embedder hashing-384, batch 1000")
        .contains("reopen: ")
        .contains("100 memories, 100 index documents");
  }

  @Test
  void rejectsBadOptions() throws Exception {
    Cli.Result users = Cli.raw("bench", "scale", "--memories", "10", "--users", "11");
    assertThat(users.exitCode()).isEqualTo(2);
    assertThat(users.err()).contains("users must be between 1 and memories (10), got 11");

    Cli.Result embedder =
        Cli.raw("bench", "scale", "--memories", "10", "--users", "1", "--embedder", "bert");
    assertThat(embedder.exitCode()).isEqualTo(2);
    assertThat(embedder.err()).contains("expected hash or onnx, got 'bert'");

    Path busy = Files.createDirectories(dir.resolve("busy"));
    Files.writeString(busy.resolve("keep.txt"), "mine");
    Cli.Result notEmpty =
        Cli.raw(
            "bench", "scale", "--memories", "10", "--users", "1", "--data-dir", busy.toString());
    assertThat(notEmpty.exitCode()).isEqualTo(2);
    assertThat(notEmpty.err()).contains("is not empty");
    assertThat(busy.resolve("keep.txt")).hasContent("mine");

    Cli.Result filledTemporary =
        Cli.raw("bench", "scale", "--memories", "10", "--users", "1", "--filled");
    assertThat(filledTemporary.exitCode()).isEqualTo(2);
    assertThat(filledTemporary.err()).contains("--filled needs the --data-dir");

    Cli.Result noUrl =
        Cli.raw("bench", "scale", "--memories", "10", "--users", "1", "--store", "postgres");
    assertThat(noUrl.exitCode()).isEqualTo(2);
    assertThat(noUrl.err()).contains("--pg-url is required with --store postgres");

    Cli.Result store =
        Cli.raw("bench", "scale", "--memories", "10", "--users", "1", "--store", "oracle");
    assertThat(store.exitCode()).isEqualTo(2);
    assertThat(store.err()).contains("expected embedded or postgres, got 'oracle'");

    Cli.Result vectors =
        Cli.raw(
            "bench",
            "scale",
            "--memories",
            "10",
            "--users",
            "1",
            "--store",
            "postgres",
            "--pg-url",
            "jdbc:postgresql://127.0.0.1:1/engram",
            "--pg-vectors",
            "faiss");
    assertThat(vectors.exitCode()).isEqualTo(2);
    assertThat(vectors.err())
        .contains("store.vectors must be auto, pgvector or array, got 'faiss'");

    Cli.Result cache =
        Cli.raw(
            "bench",
            "scale",
            "--memories",
            "10",
            "--users",
            "1",
            "--store",
            "postgres",
            "--pg-url",
            "jdbc:postgresql://127.0.0.1:1/engram",
            "--pg-vector-cache-mb",
            "-1");
    assertThat(cache.exitCode()).isEqualTo(2);
    assertThat(cache.err()).contains("vectorCacheMb").contains("must not be negative, got -1");
  }
}

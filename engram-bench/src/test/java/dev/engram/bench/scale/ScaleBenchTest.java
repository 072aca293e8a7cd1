package dev.engram.bench.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.embedded.EmbeddedStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScaleBenchTest {
  @TempDir Path tmp;

  @Test
  void tinyRunReportsExactCounts() throws IOException {
    Path dir = tmp.resolve("data");
    List<Long> progress = new ArrayList<>();
    ScaleReport r =
        ScaleBench.run(
            new ScaleBench.Options(2_000, 10, dir, 300, 50, 10, 42),
            HashingEmbedder.create(),
            progress::add);

    assertThat(r.memories()).isEqualTo(2_000);
    assertThat(r.users()).isEqualTo(10);
    assertThat(r.memoriesPerUser()).isEqualTo(200);
    assertThat(r.batch()).isEqualTo(300);
    assertThat(r.embedder()).isEqualTo("hashing-384");
    // 6 full batches of 300 and one of 200
    assertThat(progress).containsExactly(300L, 600L, 900L, 1200L, 1500L, 1800L, 2000L);
    assertThat(r.ingest().batchMs().count()).isEqualTo(7);
    assertThat(r.ingest().memoriesPerSecond()).isPositive();
    assertThat(r.search().count()).isEqualTo(50);
    assertThat(r.list().count()).isEqualTo(50);
    assertThat(r.search().p50()).isLessThanOrEqualTo(r.search().p95());
    assertThat(r.search().p95()).isLessThanOrEqualTo(r.search().p99());
    // every user has 200 memories, so every search fills its top 10, but for the searches that the
    // step names finds off-topic: a synthetic query is drawn over the whole vocabulary and may ask
    // about words none of its user's 200 memories holds (2 of these 50, seed 42)
    assertThat(r.searchHitsMean()).isBetween(9.0, 10.0);
    assertThat(r.heapUsedMib()).isPositive();

    assertThat(r.disk().databaseBytes()).isPositive();
    assertThat(r.disk().indexBytes()).isPositive();
    assertThat(r.disk().totalBytes())
        .isEqualTo(DataDirectories.bytes(dir))
        .isGreaterThanOrEqualTo(r.disk().databaseBytes() + r.disk().indexBytes());
    assertThat(Files.exists(dir.resolve(EmbeddedStorage.DATABASE_FILE))).isTrue();
    assertThat(Files.list(dir.resolve(EmbeddedStorage.INDEX_DIRECTORY)).count()).isPositive();

    assertThat(r.reopen().memories()).isEqualTo(2_000);
    assertThat(r.reopen().indexDocuments()).isEqualTo(2_000);
    assertThat(r.reopen().search().count()).isEqualTo(50);
    assertThat(r.perUser()).isEqualTo(new ScaleReport.PerUser(10, 200, 200, 2_000));
    assertThat(r.machine().processors()).isEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  void unevenSplitCountsEveryMemory() {
    ScaleReport r =
        ScaleBench.run(
            new ScaleBench.Options(1_003, 4, tmp.resolve("d"), 1_000, 5, 3, 1),
            HashingEmbedder.create(),
            n -> {});
    assertThat(r.memoriesPerUser()).isEqualTo(250);
    assertThat(r.perUser()).isEqualTo(new ScaleReport.PerUser(4, 250, 251, 1_003));
    assertThat(r.reopen().memories()).isEqualTo(1_003);
    assertThat(r.searchHitsMean()).isEqualTo(3.0);
  }

  @Test
  void reportIsJsonWithSnakeCaseKeys() throws IOException {
    ScaleReport r =
        ScaleBench.run(
            new ScaleBench.Options(100, 2, tmp.resolve("j"), 50, 3, 5, 9),
            HashingEmbedder.create(),
            n -> {});
    Path out = tmp.resolve("report.json");
    r.writeJson(out);
    assertThat(out)
        .content()
        .contains(
            "\"memories\" : 100",
            "\"memories_per_user\" : 50",
            "\"ingest\"",
            "\"memories_per_second\"",
            "\"search_ms\"",
            "\"p95\"",
            "\"list_ms\"",
            "\"heap_used_mib_after_gc\"",
            "\"disk\"",
            "\"database_bytes\"",
            "\"reopen\"",
            "\"index_documents\" : 100",
            "\"per_user\"");
    JsonNode json = new ObjectMapper().readTree(out.toFile());
    for (String path :
        List.of(
            "/search_ms/p99",
            "/reopen/search_ms/p95",
            "/ingest/batch_ms/p50",
            "/list_ms/p95",
            "/disk/index_bytes",
            "/reopen/ms",
            "/machine/processors")) {
      assertThat(json.at(path).isNumber()).as(path).isTrue();
    }
    assertThat(json.at("/per_user/total").asLong()).isEqualTo(100);
    assertThat(r.summary())
        .contains("memories 100 over 2 users (50 per user), embedder hashing-384");
  }

  @Test
  void refusesANonEmptyDirectory() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("busy"));
    Files.writeString(dir.resolve("x"), "x");
    assertThatThrownBy(
            () ->
                ScaleBench.run(
                    ScaleBench.Options.of(10, 1, dir), HashingEmbedder.create(), n -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not empty");
  }

  @Test
  void validatesOptions() {
    assertThatThrownBy(() -> ScaleBench.Options.of(10, 11, tmp))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("users must be between 1 and memories (10), got 11");
    assertThatThrownBy(() -> new ScaleBench.Options(10, 1, tmp, 0, 1, 1, 1))
        .hasMessage("batch must be between 1 and 10000, got 0");
  }
}

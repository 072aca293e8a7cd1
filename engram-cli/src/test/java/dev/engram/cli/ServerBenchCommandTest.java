package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * engram bench server on the project's mini LoCoMo fixture with the hashing embedder, its HTTP
 * clients in a JVM of their own: the report's structure and counts (no timing assertions), the
 * Markdown table, and bad options.
 */
class ServerBenchCommandTest {
  private static final String DATA = Cli.benchMiniLocomo();

  @TempDir Path dir;

  @Test
  void tinyRunReportsLatencyThroughputAndAddRatesBothWays() throws Exception {
    Path out = dir.resolve("server.json");
    Path data = dir.resolve("data");
    Cli.Result r =
        Cli.raw(
            "bench",
            "server",
            "--data",
            DATA,
            "--embedder",
            "hash",
            "--client",
            "jvm",
            "--warm-up",
            "2",
            "--latency-searches",
            "9",
            "--clients",
            "3",
            "--searches",
            "150",
            "--adds",
            "120",
            "--add-warm-up",
            "5",
            "--data-dir",
            data.toString(),
            "--out",
            out.toString(),
            "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = r.json();
    assertThat(json.get("embedder").asText()).isEqualTo("hashing-384");
    assertThat(json.get("load").asText()).isEqualTo("jvm");
    assertThat(json.get("turns").asInt()).isEqualTo(7);
    assertThat(json.get("queries").asInt()).isPositive();
    assertThat(json.at("/search/in_process_ms/count").asInt()).isEqualTo(9);
    assertThat(json.at("/search/http_ms/count").asInt()).isEqualTo(9);
    for (String latency : new String[] {"/search/in_process_ms", "/search/http_ms"}) {
      for (String field : new String[] {"p50", "p95", "p99", "mean", "max"}) {
        assertThat(json.at(latency + "/" + field).isNumber()).as(latency + "/" + field).isTrue();
      }
    }
    assertThat(json.at("/search/p50_added_ms").asDouble())
        .isEqualTo(
            json.at("/search/http_ms/p50").asDouble()
                - json.at("/search/in_process_ms/p50").asDouble(),
            org.assertj.core.data.Offset.offset(0.002));
    assertThat(json.at("/throughput/clients").asInt()).isEqualTo(3);
    assertThat(json.at("/throughput/operations").asInt()).isEqualTo(150);
    assertThat(json.at("/adds/one_client/clients").asInt()).isEqualTo(1);
    assertThat(json.at("/adds/concurrent/clients").asInt()).isEqualTo(3);
    assertThat(json.at("/adds/one_client_latency/in_process_ms/count").asInt()).isEqualTo(120);
    assertThat(json.at("/adds/one_client_latency/http_ms/count").asInt()).isEqualTo(120);
    assertThat(json.at("/adds/one_client_latency/p95_added_ms").asDouble())
        .isEqualTo(
            json.at("/adds/one_client_latency/http_ms/p95").asDouble()
                - json.at("/adds/one_client_latency/in_process_ms/p95").asDouble(),
            org.assertj.core.data.Offset.offset(0.002));
    for (String rates : new String[] {"/throughput", "/adds/one_client", "/adds/concurrent"}) {
      double in = json.at(rates + "/in_process_per_second").asDouble();
      double http = json.at(rates + "/http_per_second").asDouble();
      assertThat(in).as(rates).isPositive();
      assertThat(http).as(rates).isPositive();
      assertThat(json.at(rates + "/ratio").asDouble())
          .as(rates)
          .isCloseTo(http / in, org.assertj.core.data.Offset.offset(0.01));
      // the process's CPU per operation each way (the server's side of HTTP): measured, not zero
      // (the kernel counts it in ticks of 10 ms, so each timed block runs 120 adds or 150 searches)
      assertThat(json.at(rates + "/in_process_cpu_ms").asDouble()).as(rates).isPositive();
      assertThat(json.at(rates + "/http_cpu_ms").asDouble()).as(rates).isPositive();
      // and the JIT compiler's part of it (compile time in whole milliseconds: may be 0)
      assertThat(json.at(rates + "/in_process_jit_ms").isNumber()).as(rates).isTrue();
      assertThat(json.at(rates + "/http_jit_ms").isNumber()).as(rates).isTrue();
      assertThat(json.at(rates + "/in_process_jit_ms").asDouble()).as(rates).isNotNegative();
      assertThat(json.at(rates + "/http_jit_ms").asDouble()).as(rates).isNotNegative();
    }
    assertThat(MemoryJson.mapper().readTree(out.toFile())).isEqualTo(json);
    assertThat(Files.isRegularFile(data.resolve("server.db"))).isTrue();
    // the warm-up's adds went into scopes of their own, each way, from one client and from three
    try (dev.engram.Memory left =
        dev.engram.Engram.builder()
            .storage(dev.engram.embedded.EmbeddedStorage.at(data))
            .embedder(dev.engram.bench.scale.HashingEmbedder.create())
            .build()) {
      for (String user :
          new String[] {
            "bench-warm-up-in-process-1",
            "bench-warm-up-http-1",
            "bench-warm-up-in-process-3",
            "bench-warm-up-http-3"
          }) {
        assertThat(left.list(dev.engram.ListRequest.of(dev.engram.Scope.user(user))).items())
            .as(user)
            .hasSize(5);
      }
    }
  }

  /**
   * The default load tool, wrk (installed by scripts/test.sh): every request of each concurrent job
   * answered 200 (the run fails otherwise), the rates positive.
   */
  @Test
  void wrkSendsTheConcurrentClientsRequests() throws Exception {
    Path data = dir.resolve("wrk-data");
    Cli.Result r =
        Cli.raw(
            "bench",
            "server",
            "--data",
            DATA,
            "--embedder",
            "hash",
            "--warm-up",
            "2",
            "--latency-searches",
            "9",
            "--clients",
            "4",
            "--searches",
            "40",
            "--adds",
            "12",
            "--add-warm-up",
            "2",
            "--data-dir",
            data.toString(),
            "--json");
    assertThat(r.exitCode()).as(r.err()).isZero();
    JsonNode json = r.json();
    assertThat(json.get("load").asText()).isEqualTo("wrk");
    assertThat(json.at("/throughput/clients").asInt()).isEqualTo(4);
    assertThat(json.at("/throughput/http_per_second").asDouble()).isPositive();
    assertThat(json.at("/adds/concurrent/http_per_second").asDouble()).isPositive();
  }

  @Test
  void printsAMarkdownTableByDefault() {
    Cli.Result r =
        Cli.raw(
            "bench",
            "server",
            "--data",
            DATA,
            "--embedder",
            "hash",
            "--warm-up",
            "0",
            "--latency-searches",
            "4",
            "--clients",
            "2",
            "--searches",
            "4",
            "--adds",
            "2",
            "--add-warm-up",
            "0");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("| measure | in process | over HTTP | difference / ratio |")
        .contains("| search p50, 1 client |")
        .contains("| searches/s, 2 clients |")
        .contains("| CPU per search, 2 clients |")
        .contains("| of which JIT compiling |")
        .contains("| add p50 (infer=false), 1 client |")
        .contains("| adds/s (infer=false), 1 client |")
        .contains("| adds/s (infer=false), 2 clients |")
        .contains("| CPU per add, 2 clients |");
  }

  @Test
  void rejectsBadOptions() {
    Cli.Result clients =
        Cli.raw("bench", "server", "--data", DATA, "--embedder", "hash", "--clients", "0");
    assertThat(clients.exitCode()).isEqualTo(2);
    assertThat(clients.err()).contains("clients").contains("must be at least 1, got 0");
    Cli.Result conversation =
        Cli.raw("bench", "server", "--data", DATA, "--embedder", "hash", "--conversation", "5");
    assertThat(conversation.exitCode()).isEqualTo(2);
    assertThat(conversation.err()).contains("has 1 conversation(s), not 5");
    Cli.Result client =
        Cli.raw("bench", "server", "--data", DATA, "--embedder", "hash", "--client", "ab");
    assertThat(client.exitCode()).isEqualTo(2);
    assertThat(client.err()).contains("--client").contains("expected wrk or jvm, got 'ab'");
    Cli.Result latency =
        Cli.raw("bench", "server", "--data", DATA, "--embedder", "hash", "--latency-searches", "0");
    assertThat(latency.exitCode()).isEqualTo(2);
    assertThat(latency.err()).contains("latency-searches").contains("must be at least 1, got 0");
    Cli.Result addWarmUp =
        Cli.raw("bench", "server", "--data", DATA, "--embedder", "hash", "--add-warm-up", "-1");
    assertThat(addWarmUp.exitCode()).isEqualTo(2);
    assertThat(addWarmUp.err()).contains("add-warm-up").contains("must be at least 0, got -1");
  }
}

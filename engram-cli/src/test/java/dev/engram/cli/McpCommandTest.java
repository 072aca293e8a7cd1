package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.json.MemoryJson;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram mcp} started as a child process (this JVM's class path, the real embedder), driven
 * by the official MCP Java client and by raw frames; stdout carries protocol frames only.
 */
class McpCommandTest {
  @TempDir Path dir;

  private List<String> command(String... args) {
    List<String> c =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                EngramCommand.class.getName(),
                "mcp",
                "--data-dir",
                dir.resolve("data").toString()));
    c.addAll(List.of(args));
    return c;
  }

  @Test
  @SuppressWarnings("unchecked")
  void theJavaClientUsesEngramMcpOverStdio() {
    List<String> cmd = command("--user-id", "alice");
    StdioClientTransport transport =
        new StdioClientTransport(
            ServerParameters.builder(cmd.get(0)).args(cmd.subList(1, cmd.size())).build(),
            McpJsonDefaults.getMapper());
    try (McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(120))
            .initializationTimeout(Duration.ofSeconds(120))
            .build()) {
      assertThat(client.initialize().serverInfo().name()).isEqualTo("engram");
      assertThat(client.listTools().tools())
          .extracting(Tool::name)
          .hasSize(10)
          .contains("add_memory", "search_memories");
      CallToolResult added =
          client.callTool(
              new CallToolRequest(
                  "add_memory",
                  Map.of("text", "Alice keeps two cats named Pixel and Byte", "infer", false)));
      assertThat(added.isError()).isFalse();
      String id =
          (String)
              ((List<Map<String, Object>>)
                      ((Map<String, Object>) added.structuredContent()).get("results"))
                  .get(0)
                  .get("id");
      CallToolResult found =
          client.callTool(
              new CallToolRequest(
                  "search_memories", Map.of("query", "what pets does Alice have", "top_k", 3)));
      List<Map<String, Object>> hits =
          (List<Map<String, Object>>)
              ((Map<String, Object>) found.structuredContent()).get("results");
      assertThat(hits)
          .first()
          .satisfies(h -> assertThat(h).containsEntry("id", id).containsEntry("user_id", "alice"));
      client.closeGracefully();
    }
    transport.awaitForExit();
    Cli.Result listed = new Cli(dir.resolve("data")).run("list", "--user-id", "alice", "--json");
    assertThat(listed.exitCode()).isZero();
    assertThat(listed.json().get("results").get(0).get("memory").asText())
        .isEqualTo("Alice keeps two cats named Pixel and Byte");
  }

  @Test
  void theEnvironmentGivesTheDefaultScopeAndStdoutCarriesOnlyFrames() throws Exception {
    ProcessBuilder pb =
        new ProcessBuilder(command()).redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().put("ENGRAM_USER_ID", "bob");
    Process p = pb.start();
    try (OutputStream in = p.getOutputStream()) {
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
              + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
      send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
      send(in, "not a frame");
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"add_memory\","
              + "\"arguments\":{\"text\":\"Bob brews his own cider\",\"infer\":false}}}");
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"list_memories\","
              + "\"arguments\":{}}}");
    } // stdin closed: the server answers what it read, then exits
    String stdout = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    List<JsonNode> frames = new ArrayList<>();
    for (String line : stdout.split("\n")) {
      frames.add(MemoryJson.mapper().readTree(line)); // every stdout line is a JSON-RPC frame
      assertThat(frames.get(frames.size() - 1).get("jsonrpc").asText()).isEqualTo("2.0");
    }
    assertThat(frames).hasSize(4);
    assertThat(frames).anySatisfy(f -> assertThat(f.at("/error/code").asInt()).isEqualTo(-32700));
    JsonNode add = frames.stream().filter(f -> f.path("id").asInt() == 2).findFirst().orElseThrow();
    assertThat(add.at("/result/structuredContent/results/0/event").asText()).isEqualTo("ADD");
    assertThat(add.at("/result/content/0/text").asText()).contains("user_id=bob");
    // requests run concurrently, so the list (id 3) may or may not see the add; it was answered
    assertThat(frames).anySatisfy(f -> assertThat(f.path("id").asInt()).isEqualTo(3));
    Cli.Result listed = new Cli(dir.resolve("data")).run("list", "--user-id", "bob", "--json");
    assertThat(listed.json().get("results")).hasSize(1);
    assertThat(listed.json().get("results").get(0).get("memory").asText())
        .isEqualTo("Bob brews his own cider");
  }

  @Test
  void aMalformedDefaultIdIsBadInput() {
    Cli.Result r = new Cli(dir.resolve("data")).run("mcp", "--user-id", "has space");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.err()).contains("user_id");
    assertThat(r.out()).isEmpty();
  }

  private static void send(OutputStream in, String line) throws IOException {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }
}

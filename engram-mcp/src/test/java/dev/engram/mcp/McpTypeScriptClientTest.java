package dev.engram.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official TypeScript SDK client ({@code @modelcontextprotocol/sdk} 1.32.2 from npm, pinned by
 * the committed lock file in {@code src/test/node}) lists the tools, adds a memory and finds it,
 * over stdio (the {@link StdioServerMain} child process) and over HTTP (the servlet in Jetty).
 * {@code npm ci} runs here, in {@code target/mcp-node}; it needs Node 20 and the npm registry.
 */
class McpTypeScriptClientTest {
  static final Path PROJECT = Path.of("src", "test", "node");
  static final Path WORK = Path.of("target", "mcp-node");
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @BeforeAll
  static void installTheClient() throws Exception {
    Files.createDirectories(WORK);
    for (String f : List.of("package.json", "package-lock.json", "client.mjs")) {
      Files.copy(PROJECT.resolve(f), WORK.resolve(f), StandardCopyOption.REPLACE_EXISTING);
    }
    Path installed = WORK.resolve("node_modules").resolve(".package-lock.json");
    Path stamp = WORK.resolve("node_modules").resolve(".engram-installed-lock.json");
    if (Files.exists(installed)
        && Files.exists(stamp)
        && Files.mismatch(stamp, WORK.resolve("package-lock.json")) == -1) {
      return; // this exact lock file is already installed
    }
    Result r = run(WORK, List.of("npm", "ci", "--prefer-offline", "--no-audit", "--no-fund"), 600);
    assertThat(r.exitCode()).as("npm ci: " + r.err()).isZero();
    Files.copy(WORK.resolve("package-lock.json"), stamp, StandardCopyOption.REPLACE_EXISTING);
  }

  record Result(int exitCode, String out, String err) {
    JsonNode summary() throws IOException {
      String[] lines = out.strip().split("\n");
      return JSON.readTree(lines[lines.length - 1]);
    }
  }

  static Result run(Path cwd, List<String> command, int timeoutSeconds) throws Exception {
    Path out = Files.createTempFile("node-out", ".txt");
    Path err = Files.createTempFile("node-err", ".txt");
    Process p =
        new ProcessBuilder(command)
            .directory(cwd.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          command
              + " did not finish in "
              + timeoutSeconds
              + " s; stderr: "
              + Files.readString(err));
    }
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private static void checkSummary(Result r) throws IOException {
    assertThat(r.exitCode()).as("node client failed: " + r.err()).isZero();
    JsonNode s = r.summary();
    assertThat(s.get("server").asText()).isEqualTo("engram");
    List<String> tools = new ArrayList<>();
    s.get("tools").forEach(t -> tools.add(t.asText()));
    assertThat(tools).containsExactlyInAnyOrderElementsOf(ToolScenario.TOOL_NAMES);
    assertThat(s.get("topId").asText()).isEqualTo(s.get("addedId").asText());
    assertThat(s.get("badArgumentError").asText()).contains("query");
  }

  @Test
  void overStdio() throws Exception {
    Path data = dir.resolve("data");
    List<String> command =
        new ArrayList<>(
            List.of(
                "node",
                "client.mjs",
                "stdio",
                "tess",
                McpClients.javaBinary(),
                "-cp",
                System.getProperty("java.class.path"),
                StdioServerMain.class.getName(),
                data.toString()));
    Result r = run(WORK, command, 300);
    checkSummary(r);
    try (Memory memory = TestMemories.open(data)) {
      assertThat(memory.get(r.summary().get("addedId").asText()))
          .get()
          .satisfies(
              m ->
                  assertThat(m.text())
                      .isEqualTo("tess learned to play the theremin in stdio mode"));
    }
  }

  @Test
  void overHttp() throws Exception {
    try (Memory root = TestMemories.open(dir.resolve("data"));
        JettyMcpServer server =
            new JettyMcpServer(
                McpHttpEndpoint.servlet(
                    key ->
                        "ts-key".equals(key)
                            ? Optional.of(root.forTenant("ts"))
                            : Optional.empty()))) {
      Result r =
          run(
              WORK,
              List.of("node", "client.mjs", "http", "tess", server.mcpUri().toString(), "ts-key"),
              300);
      checkSummary(r);
      assertThat(r.summary().get("protocolVersion").asText()).isEqualTo("2025-11-25");
      assertThat(root.forTenant("ts").get(r.summary().get("addedId").asText())).isPresent();
      assertThat(root.forTenant("other").list(ListRequest.of(Scope.user("tess"))).total()).isZero();

      Result denied =
          run(
              WORK,
              List.of(
                  "node", "client.mjs", "http", "tess", server.mcpUri().toString(), "wrong-key"),
              300);
      assertThat(denied.exitCode()).isEqualTo(1);
      assertThat(denied.err()).contains("unauthorized").contains("invalid API key");
    }
  }
}

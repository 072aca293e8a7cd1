package dev.engram.mcp;

import static dev.engram.mcp.McpClients.call;
import static dev.engram.mcp.McpClients.results;
import static dev.engram.mcp.McpClients.structured;
import static dev.engram.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stdio server as a child process ({@link StdioServerMain}: real embedded storage, default user
 * alice), driven by the official MCP Java client and by raw JSON-RPC lines.
 */
class McpStdioServerTest {
  @TempDir Path dir;

  private List<String> command(Path data) {
    return new ArrayList<>(
        List.of(
            McpClients.javaBinary(),
            "-cp",
            System.getProperty("java.class.path"),
            StdioServerMain.class.getName(),
            data.toString(),
            "alice"));
  }

  @Test
  void javaClientCallsEveryToolInTheDefaultScope() {
    try (McpClients.StdioClient stdio =
        McpClients.stdio(McpClients.stdioServer(dir.resolve("data"), "alice"))) {
      McpSyncClient client = stdio.client();
      var init = client.initialize();
      assertThat(init.serverInfo().name()).isEqualTo("engram");
      assertThat(init.protocolVersion()).isEqualTo(ProtocolVersions.MCP_2025_11_25);
      assertThat(init.instructions()).contains("search_memories");
      ToolScenario scenario = new ToolScenario(client, Map.of());
      scenario.listsEveryTool();
      scenario.callsEveryTool();

      // the default scope's memories as a resource
      scenario.ok("add_memory", Map.of("text", "Alice drinks green tea", "infer", false));
      List<Resource> resources = client.listResources().resources();
      assertThat(resources).extracting(Resource::uri).containsExactly("engram://memories");
      var read = client.readResource(new ReadResourceRequest("engram://memories"));
      assertThat(((TextResourceContents) read.contents().get(0)).text())
          .contains("Alice drinks green tea")
          .contains("\"total\":1");
    }
  }

  @Test
  void callsByIdNeverReachOutsideTheScope() throws Exception {
    String bobId;
    try (McpClients.StdioClient stdio =
        McpClients.stdio(McpClients.stdioServer(dir.resolve("data"), "alice"))) {
      McpSyncClient client = stdio.client();
      client.initialize();
      CallToolResult bob =
          call(
              client,
              "add_memory",
              Map.of("user_id", "bob", "text", "Bob hates olives", "infer", false));
      bobId = (String) results(bob).get(0).get("id");
      assertThat(results(bob).get(0)).containsEntry("event", "ADD");
      // the default scope (alice) does not see Bob's memory, by search, list or id
      assertThat(results(call(client, "search_memories", Map.of("query", "olives")))).isEmpty();
      assertThat(structured(call(client, "list_memories", Map.of()))).containsEntry("total", 0);
      for (String tool : List.of("get_memory", "memory_history", "delete_memory")) {
        CallToolResult r = call(client, tool, Map.of("memory_id", bobId));
        assertThat(r.isError()).as(tool).isTrue();
        assertThat(text(r)).contains("memory_id").contains("user_id=alice");
      }
      assertThat(
              call(client, "update_memory", Map.of("memory_id", bobId, "text", "Bob loves olives"))
                  .isError())
          .isTrue();
      assertThat(structured(call(client, "delete_all_memories", Map.of("confirm", true))))
          .containsEntry("deleted", 0);
      // naming Bob's scope reaches it
      assertThat(
              structured(call(client, "get_memory", Map.of("user_id", "bob", "memory_id", bobId))))
          .containsEntry("memory", "Bob hates olives");
    }
    try (Memory memory = TestMemories.open(dir.resolve("data"))) {
      assertThat(memory.get(bobId))
          .get()
          .satisfies(m -> assertThat(m.text()).isEqualTo("Bob hates olives"));
    }
  }

  @Test
  void negotiatesTheClientsLatestAndPreviousProtocolVersions() throws Exception {
    Path data = dir.resolve("data");
    for (String version :
        List.of(ProtocolVersions.MCP_2025_11_25, ProtocolVersions.MCP_2025_06_18)) {
      try (RawStdioSession s = new RawStdioSession(command(data))) {
        JsonNode init = s.initialize(version);
        assertThat(init.at("/result/protocolVersion").asText()).as(version).isEqualTo(version);
        s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertThat(s.response(2).at("/result/tools").size()).isEqualTo(10);
        assertThat(s.closeInputAndWait()).isZero();
        assertThat(s.nonJsonLines()).isEmpty();
      }
    }
    // a version the server does not know: it answers with its latest, and the client decides
    try (RawStdioSession s = new RawStdioSession(command(data))) {
      assertThat(s.initialize("1999-01-01").at("/result/protocolVersion").asText())
          .isEqualTo(ProtocolVersions.MCP_2025_11_25);
    }
  }

  @Test
  void malformedFramesGetErrorsAndTheSessionStaysUp() throws Exception {
    try (RawStdioSession s = new RawStdioSession(command(dir.resolve("data")))) {
      s.initialize(ProtocolVersions.MCP_2025_11_25);
      s.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"no/such/method\"}");
      assertThat(s.response(3).at("/error/code").asInt()).isEqualTo(-32601);
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}");
      assertThat(s.response(4).has("error")).isTrue();
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"add_memory\","
              + "\"arguments\":{\"text\":{\"nested\":true}}}}");
      JsonNode bad = s.response(5);
      assertThat(bad.at("/result/isError").asBoolean()).isTrue();
      assertThat(bad.at("/result/content/0/text").asText()).contains("'text'");
      s.send("this is not JSON");
      s.send("{\"jsonrpc\":\"2.0\",\"id\":");
      s.send("[1,2,3]");
      for (int i = 0; i < 3; i++) {
        JsonNode parseError = s.next();
        assertThat(parseError.at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(parseError.get("id").isNull()).isTrue();
      }
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"add_memory\","
              + "\"arguments\":{\"text\":\"Alice rows on Sundays\",\"infer\":false}}}");
      JsonNode ok = s.response(6);
      assertThat(ok.at("/result/isError").asBoolean()).isFalse();
      assertThat(ok.at("/result/structuredContent/results/0/memory").asText())
          .isEqualTo("Alice rows on Sundays");
      assertThat(s.isAlive()).isTrue();
      assertThat(s.closeInputAndWait()).isZero();
      assertThat(s.nonJsonLines()).isEmpty();
    }
  }

  @Test
  void aClientThatLeavesMidCallLeavesAllOrNothingAndTheServerExitsCleanly() throws Exception {
    Path data = dir.resolve("data");
    int n = 200;
    StringBuilder messages = new StringBuilder();
    for (int i = 0; i < n; i++) {
      messages
          .append(i == 0 ? "" : ",")
          .append("{\"role\":\"user\",\"content\":\"Fact number ")
          .append(i)
          .append(" about rowing\"}");
    }
    try (RawStdioSession s = new RawStdioSession(command(data))) {
      s.initialize(ProtocolVersions.MCP_2025_11_25);
      s.send(
          "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"add_memory\","
              + "\"arguments\":{\"infer\":false,\"messages\":["
              + messages
              + "]}}}");
      assertThat(s.closeInputAndWait()).isZero();
      assertThat(s.nonJsonLines()).isEmpty();
    }
    try (Memory memory = TestMemories.open(data)) {
      long stored = memory.list(ListRequest.of(Scope.user("alice")).withPage(0, 1000)).total();
      // all or nothing; and since the server read the request before stdin ended, it finished it:
      // all
      assertThat(stored).isEqualTo(n);
    }
  }
}

package dev.engram.mcp;

import static dev.engram.mcp.McpClients.call;
import static dev.engram.mcp.McpClients.results;
import static dev.engram.mcp.McpClients.structured;
import static dev.engram.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP endpoint in a real Jetty 12 on 127.0.0.1 over real embedded storage, driven by the
 * official MCP Java client: every tool, tenants from API keys, auth failures.
 */
class McpHttpEndpointTest {
  static final String KEY_A = "key-tenant-a-0123456789";
  static final String KEY_B = "key-tenant-b-9876543210";

  @TempDir static Path dir;
  static Memory root;
  static JettyMcpServer server;

  @BeforeAll
  static void start() throws Exception {
    root = TestMemories.open(dir.resolve("data"));
    McpAuthenticator auth =
        key ->
            switch (key) {
              case KEY_A -> Optional.of(root.forTenant("a"));
              case KEY_B -> Optional.of(root.forTenant("b"));
              default -> Optional.empty();
            };
    server = new JettyMcpServer(McpHttpEndpoint.servlet(auth));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    root.close();
  }

  @Test
  void javaClientCallsEveryTool() {
    try (McpSyncClient client = McpClients.http(server.baseUri(), KEY_A)) {
      var init = client.initialize();
      assertThat(init.serverInfo().name()).isEqualTo("engram");
      assertThat(init.capabilities().tools()).isNotNull();
      ToolScenario scenario = new ToolScenario(client, Map.of("user_id", "alice"));
      scenario.listsEveryTool();
      scenario.callsEveryTool();
    }
    assertThat(root.forTenant("a").list(ListRequest.of(Scope.user("alice"))).total()).isZero();
  }

  @Test
  void withoutDefaultsEveryCallMustNameItsScope() {
    try (McpSyncClient client = McpClients.http(server.baseUri(), KEY_A)) {
      client.initialize();
      CallToolResult r = call(client, "list_memories", Map.of());
      assertThat(r.isError()).isTrue();
      assertThat(text(r)).contains("user_id");
      assertThat(structured(r))
          .containsEntry("error", "invalid_argument")
          .containsEntry("argument", "user_id");
    }
  }

  @Test
  void anotherTenantsKeySeesAndTouchesNothingOfTheFirst() {
    String id =
        root.forTenant("a")
            .add(
                AddRequest.builder(Scope.user("carol"))
                    .user("Carol plays the cello")
                    .infer(false)
                    .build())
            .events()
            .get(0)
            .id();
    try (McpSyncClient b = McpClients.http(server.baseUri(), KEY_B)) {
      b.initialize();
      Map<String, Object> carol = Map.of("user_id", "carol");
      assertThat(results(call(b, "search_memories", Map.of("user_id", "carol", "query", "cello"))))
          .isEmpty();
      assertThat(structured(call(b, "list_memories", carol))).containsEntry("total", 0);
      for (String tool : List.of("get_memory", "memory_history", "delete_memory")) {
        CallToolResult r = call(b, tool, Map.of("user_id", "carol", "memory_id", id));
        assertThat(r.isError()).as(tool).isTrue();
        assertThat(text(r)).contains("memory_id");
      }
      CallToolResult u =
          call(b, "update_memory", Map.of("user_id", "carol", "memory_id", id, "text", "hacked"));
      assertThat(u.isError()).isTrue();
      assertThat(
              structured(
                  call(b, "delete_all_memories", Map.of("user_id", "carol", "confirm", true))))
          .containsEntry("deleted", 0);
    }
    assertThat(root.forTenant("a").get(id))
        .get()
        .satisfies(m -> assertThat(m.text()).isEqualTo("Carol plays the cello"));
    // the same key sees it, but only through the memory's own scope
    try (McpSyncClient a = McpClients.http(server.baseUri(), KEY_A)) {
      a.initialize();
      assertThat(call(a, "get_memory", Map.of("user_id", "carol", "memory_id", id)).isError())
          .isFalse();
      CallToolResult other = call(a, "get_memory", Map.of("user_id", "dave", "memory_id", id));
      assertThat(other.isError()).isTrue();
      assertThat(text(other)).contains("memory_id").contains("user_id=dave");
      assertThat(call(a, "delete_memory", Map.of("user_id", "dave", "memory_id", id)).isError())
          .isTrue();
    }
    assertThat(root.forTenant("a").get(id)).isPresent();
  }

  @Test
  void noKeyAndBadKeysGet401() {
    for (String key : List.of("wrong-key", KEY_A + "x", "")) {
      try (McpSyncClient client = McpClients.http(server.baseUri(), key)) {
        assertThatThrownBy(client::initialize).hasStackTraceContaining("401");
      }
    }
  }

  @Test
  void unknownToolIsAProtocolErrorAndTheSessionStaysUp() {
    try (McpSyncClient client = McpClients.http(server.baseUri(), KEY_A)) {
      client.initialize();
      assertThatThrownBy(() -> call(client, "no_such_tool", Map.of()))
          .isInstanceOf(McpError.class)
          .hasMessageContaining("Unknown tool")
          .satisfies(
              e ->
                  assertThat(String.valueOf(((McpError) e).getJsonRpcError().data()))
                      .contains("no_such_tool"));
      assertThat(call(client, "list_memories", Map.of("user_id", "zed")).isError()).isFalse();
    }
  }
}

package dev.engram.mcp;

import static dev.engram.mcp.McpClients.call;
import static dev.engram.mcp.McpClients.structured;
import static dev.engram.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Scope;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad arguments for every tool, over HTTP with the official Java client: each gives a tool error
 * naming the argument, the session stays up, and the store is unchanged.
 */
class BadArgumentsTest {
  @TempDir Path dir;

  record Case(String tool, Map<String, Object> args, String argument) {}

  static List<Case> cases(String id) {
    List<Case> c = new ArrayList<>();
    Map<String, Object> msg = Map.of("role", "user", "content", "hello");
    c.add(new Case("add_memory", Map.of(), "text"));
    c.add(new Case("add_memory", Map.of("text", 5), "text"));
    c.add(new Case("add_memory", Map.of("text", "   "), "text"));
    c.add(new Case("add_memory", Map.of("text", "x", "messages", List.of(msg)), "messages"));
    c.add(new Case("add_memory", Map.of("messages", "hello"), "messages"));
    c.add(new Case("add_memory", Map.of("messages", List.of()), "messages"));
    c.add(
        new Case(
            "add_memory",
            Map.of("messages", List.of(Map.of("role", "robot", "content", "x"))),
            "role"));
    c.add(
        new Case(
            "add_memory", Map.of("messages", List.of(msg, Map.of("role", "user"))), "content"));
    c.add(new Case("add_memory", Map.of("text", "x", "infer", "yes"), "infer"));
    c.add(new Case("add_memory", Map.of("text", "x", "metadata", "m"), "metadata"));
    c.add(new Case("add_memory", Map.of("text", "x", "timestamp", "the day before"), "timestamp"));
    c.add(
        new Case("add_memory", Map.of("text", "x", "expiration_date", "soon"), "expiration_date"));
    c.add(new Case("add_memory", Map.of("text", "x", "bogus", 1), "bogus"));
    // Over the engine's default text limit (1 MiB characters): named, with the limit.
    String tooLong = "x".repeat(1_048_577);
    c.add(
        new Case(
            "add_memory",
            Map.of("text", tooLong),
            "'text': is 1048577 characters long; the limit is 1048576"));
    c.add(
        new Case(
            "add_memory",
            Map.of("messages", List.of(msg, Map.of("role", "user", "content", tooLong))),
            "'messages[1].content': is 1048577 characters long; the limit is 1048576"));
    c.add(new Case("add_memory", Map.of("text", "x", "user_id", "has space"), "user_id"));
    c.add(new Case("add_memory", Map.of("text", "x", "user_id", 42), "user_id"));
    c.add(new Case("search_memories", Map.of(), "query"));
    c.add(new Case("search_memories", Map.of("query", "  "), "query"));
    c.add(new Case("search_memories", Map.of("query", "x", "top_k", 0), "top_k"));
    c.add(new Case("search_memories", Map.of("query", "x", "top_k", "5"), "top_k"));
    c.add(new Case("search_memories", Map.of("query", "x", "top_k", 2.5), "top_k"));
    c.add(new Case("search_memories", Map.of("query", "x", "threshold", 2), "threshold"));
    c.add(new Case("search_memories", Map.of("query", "x", "rerank", "yes"), "rerank"));
    c.add(new Case("search_memories", Map.of("query", "x", "max_tokens", 0), "max_tokens"));
    c.add(
        new Case(
            "search_memories",
            Map.of("query", "x", "filters", Map.of("age", Map.of("between", 1))),
            "age"));
    c.add(new Case("search_memories", Map.of("query", "x", "filters", "topic=pets"), "filters"));
    c.add(new Case("search_memories", Map.of("query", "x", "as_of", "now-ish"), "as_of"));
    c.add(new Case("search_memories", Map.of("query", "x", "ranking", "magic"), "ranking"));
    c.add(new Case("list_memories", Map.of("limit", -1), "limit"));
    c.add(new Case("list_memories", Map.of("offset", "a"), "offset"));
    c.add(new Case("list_memories", Map.of("filters", List.of(1)), "filters"));
    c.add(new Case("get_memory", Map.of(), "memory_id"));
    c.add(new Case("get_memory", Map.of("memory_id", 7), "memory_id"));
    c.add(
        new Case(
            "get_memory",
            Map.of("memory_id", "00000000-0000-0000-0000-000000000000"),
            "memory_id"));
    c.add(new Case("update_memory", Map.of("memory_id", id), "text"));
    c.add(new Case("update_memory", Map.of("memory_id", id, "text", ""), "text"));
    c.add(
        new Case(
            "update_memory",
            Map.of("memory_id", id, "expiration_date", "soon"),
            "expiration_date"));
    c.add(new Case("update_memory", Map.of("memory_id", id, "metadata", List.of(1)), "metadata"));
    c.add(new Case("update_memory", Map.of("text", "new"), "memory_id"));
    c.add(new Case("delete_memory", Map.of(), "memory_id"));
    c.add(new Case("delete_memory", Map.of("memory_id", "no-such-id"), "memory_id"));
    c.add(new Case("delete_all_memories", Map.of(), "confirm"));
    c.add(new Case("delete_all_memories", Map.of("confirm", "true"), "confirm"));
    c.add(new Case("delete_all_memories", Map.of("confirm", false), "confirm"));
    c.add(new Case("memory_history", Map.of(), "memory_id"));
    c.add(new Case("memory_history", Map.of("memory_id", List.of(id)), "memory_id"));
    c.add(new Case("entity_relations", Map.of(), "entity"));
    c.add(
        new Case(
            "entity_relations",
            Map.of("entity", "Alice", "include_invalidated", 1),
            "include_invalidated"));
    c.add(new Case("entity_relations", Map.of("entity", "Alice", "as_of", "x"), "as_of"));
    c.add(new Case("graph_around", Map.of(), "entity"));
    c.add(new Case("graph_around", Map.of("entity", "Alice", "hops", 4), "hops"));
    return c;
  }

  @Test
  void everyBadArgumentIsAToolErrorNamingItAndChangesNothing() throws Exception {
    try (Memory root = TestMemories.open(dir.resolve("data"));
        JettyMcpServer server =
            new JettyMcpServer(
                McpHttpEndpoint.servlet(
                    key ->
                        key.equals("k") ? Optional.of(root.forTenant("t")) : Optional.empty()))) {
      Memory memory = root.forTenant("t");
      String id =
          memory
              .add(
                  AddRequest.builder(Scope.user("alice"))
                      .user("Alice likes green tea")
                      .infer(false)
                      .build())
              .events()
              .get(0)
              .id();
      List<MemoryItem> before = memory.list(ListRequest.of(Scope.user("alice"))).items();
      var historyBefore = memory.history(id);
      try (McpSyncClient client = McpClients.http(server.baseUri(), "k")) {
        client.initialize();
        List<String> tools = new ArrayList<>();
        for (Case c : cases(id)) {
          Map<String, Object> args = new HashMap<>();
          args.put("user_id", "alice");
          args.putAll(c.args());
          CallToolResult r = call(client, c.tool(), args);
          assertThat(r.isError()).as(c.toString()).isTrue();
          assertThat(text(r)).as(c.toString()).contains(c.argument()).contains("Invalid argument");
          assertThat(structured(r)).as(c.toString()).containsEntry("error", "invalid_argument");
          tools.add(c.tool());
        }
        assertThat(tools).containsAll(ToolScenario.TOOL_NAMES);
        // the session is still up and serves good calls
        assertThat(
                call(client, "get_memory", Map.of("user_id", "alice", "memory_id", id)).isError())
            .isFalse();
      }
      assertThat(memory.list(ListRequest.of(Scope.user("alice"))).items()).isEqualTo(before);
      assertThat(memory.history(id)).isEqualTo(historyBefore);
      assertThat(memory.list(ListRequest.of(Scope.user("x"))).total()).isZero();
    }
  }
}

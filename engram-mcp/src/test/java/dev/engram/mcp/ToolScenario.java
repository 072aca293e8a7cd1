package dev.engram.mcp;

import static dev.engram.mcp.McpClients.call;
import static dev.engram.mcp.McpClients.results;
import static dev.engram.mcp.McpClients.structured;
import static dev.engram.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Calls every tool once through an MCP client and checks the structured results and the text, for
 * one scope (alice). {@code scopeArgs} is merged into every call: empty when the server's default
 * scope is alice.
 */
final class ToolScenario {
  static final List<String> TOOL_NAMES =
      List.of(
          "add_memory",
          "search_memories",
          "list_memories",
          "get_memory",
          "update_memory",
          "delete_memory",
          "delete_all_memories",
          "memory_history",
          "entity_relations",
          "graph_around");

  private final McpSyncClient client;
  private final Map<String, Object> scopeArgs;

  ToolScenario(McpSyncClient client, Map<String, Object> scopeArgs) {
    this.client = client;
    this.scopeArgs = scopeArgs;
  }

  CallToolResult ok(String tool, Map<String, Object> args) {
    CallToolResult r = call(client, tool, with(args));
    assertThat(r.isError()).as(tool + ": " + r.content()).isFalse();
    assertThat(text(r)).isNotBlank();
    return r;
  }

  Map<String, Object> with(Map<String, Object> args) {
    Map<String, Object> all = new HashMap<>(scopeArgs);
    all.putAll(args);
    return all;
  }

  void listsEveryTool() {
    List<Tool> tools = client.listTools().tools();
    assertThat(tools).extracting(Tool::name).containsExactlyInAnyOrderElementsOf(TOOL_NAMES);
    for (Tool t : tools) {
      assertThat(t.description()).as(t.name()).hasSizeGreaterThan(80);
      assertThat(t.inputSchema()).containsEntry("type", "object").containsKey("properties");
      @SuppressWarnings("unchecked")
      Map<String, Object> props = (Map<String, Object>) t.inputSchema().get("properties");
      assertThat(props).containsKeys("user_id", "agent_id", "run_id");
    }
  }

  @SuppressWarnings("unchecked")
  void callsEveryTool() {
    // add_memory: verbatim text with metadata, then a conversation through the offline extractor
    CallToolResult added =
        ok(
            "add_memory",
            Map.of(
                "text",
                "Alice adopted a puppy called Max",
                "infer",
                false,
                "metadata",
                Map.of("topic", "pets")));
    assertThat(results(added))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e)
                  .containsEntry("event", "ADD")
                  .containsEntry("memory", "Alice adopted a puppy called Max");
            });
    String maxId = (String) results(added).get(0).get("id");
    assertThat(text(added)).contains(maxId).contains("ADD");

    CallToolResult inferred =
        ok(
            "add_memory",
            Map.of(
                "messages",
                List.of(
                    Map.of(
                        "role",
                        "user",
                        "content",
                        "I moved to Lisbon last spring.",
                        "name",
                        "Alice",
                        "timestamp",
                        "2024-05-01T10:00:00Z"))));
    assertThat(results(inferred))
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.get("event")).isEqualTo("ADD"));
    assertThat(results(inferred).get(0).get("memory").toString()).contains("Lisbon");

    // search_memories
    CallToolResult found = ok("search_memories", Map.of("query", "puppy called Max", "top_k", 5));
    Map<String, Object> best = results(found).get(0);
    assertThat(best)
        .containsEntry("id", maxId)
        .containsKey("score")
        .containsEntry("user_id", "alice");
    assertThat(text(found))
        .contains("Alice adopted a puppy called Max")
        .contains(maxId)
        .contains("score");
    assertThat((List<Object>) structured(found).get("relations")).isNotEmpty();

    // a context budget: "Alice adopted a puppy called Max" is 7 cl100k tokens
    CallToolResult budgeted =
        ok("search_memories", Map.of("query", "puppy called Max", "max_tokens", 8, "threshold", 0));
    assertThat(results(budgeted)).isNotEmpty();
    assertThat(
            results(budgeted).stream()
                .mapToInt(m -> dev.engram.TokenCounter.cl100k().count(m.get("memory").toString()))
                .sum())
        .isLessThanOrEqualTo(8);

    CallToolResult filtered =
        ok(
            "search_memories",
            Map.of("query", "Lisbon puppy", "filters", Map.of("topic", Map.of("eq", "pets"))));
    assertThat(results(filtered)).extracting(m -> m.get("id")).containsExactly(maxId);

    // list_memories
    CallToolResult listed = ok("list_memories", Map.of("limit", 10));
    assertThat(structured(listed).get("total")).isEqualTo(1 + results(inferred).size());
    assertThat(results(listed)).extracting(m -> m.get("id")).contains(maxId);

    // get_memory
    CallToolResult got = ok("get_memory", Map.of("memory_id", maxId));
    assertThat(structured(got))
        .containsEntry("id", maxId)
        .containsEntry("memory", "Alice adopted a puppy called Max")
        .containsEntry("metadata", Map.of("topic", "pets"));

    // update_memory
    CallToolResult updated =
        ok(
            "update_memory",
            Map.of("memory_id", maxId, "text", "Alice adopted a beagle called Max"));
    assertThat(structured(updated)).containsEntry("memory", "Alice adopted a beagle called Max");

    // memory_history
    CallToolResult history = ok("memory_history", Map.of("memory_id", maxId));
    assertThat(results(history)).extracting(h -> h.get("event")).containsExactly("ADD", "UPDATE");
    assertThat(results(history).get(1))
        .containsEntry("old_memory", "Alice adopted a puppy called Max")
        .containsEntry("new_memory", "Alice adopted a beagle called Max");

    // entity_relations and graph_around (offline graph: the names a memory mentions are related)
    CallToolResult relations = ok("entity_relations", Map.of("entity", "Max"));
    assertThat((List<Map<String, Object>>) structured(relations).get("relations"))
        .isNotEmpty()
        .allSatisfy(
            r -> assertThat(r).containsKeys("source", "relationship", "destination", "fact"));
    assertThat(text(relations)).contains("Max");
    CallToolResult around = ok("graph_around", Map.of("entity", "Alice", "hops", 2));
    assertThat((List<Object>) structured(around).get("relations")).isNotEmpty();

    // delete_memory
    CallToolResult deleted = ok("delete_memory", Map.of("memory_id", maxId));
    assertThat(structured(deleted)).containsEntry("id", maxId).containsEntry("deleted", true);
    CallToolResult gone = call(client, "get_memory", with(Map.of("memory_id", maxId)));
    assertThat(gone.isError()).isTrue();
    assertThat(text(gone)).contains("memory_id");

    // delete_all_memories
    CallToolResult refused = call(client, "delete_all_memories", with(Map.of("confirm", false)));
    assertThat(refused.isError()).isTrue();
    assertThat(text(refused)).contains("confirm");
    CallToolResult all = ok("delete_all_memories", Map.of("confirm", true));
    assertThat(structured(all))
        .containsEntry("deleted", results(inferred).size())
        .containsEntry("scope", Map.of("user_id", "alice"));
    assertThat(structured(ok("list_memories", Map.of()))).containsEntry("total", 0);
  }
}

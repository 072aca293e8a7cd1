package dev.engram.mcp;

import static dev.engram.mcp.McpClients.call;
import static dev.engram.mcp.McpClients.results;
import static dev.engram.mcp.McpClients.structured;
import static dev.engram.mcp.McpClients.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search_memories}'s {@code ranking} argument over HTTP with the official Java client: the
 * tool searches with the ranking steps it names and returns the hits the library returns for the
 * same request on the same store; a bad spec is a tool error naming {@code ranking}.
 */
class McpSearchRankingTest {
  private static final String QUERY = "Where did Alice go hiking in August 2023?";

  @TempDir Path dir;

  @Test
  void theRankingArgumentGivesTheLibrarysRankingAndABadSpecIsRefused() throws Exception {
    try (Memory root = TestMemories.open(dir.resolve("data"), false);
        JettyMcpServer server =
            new JettyMcpServer(
                McpHttpEndpoint.servlet(
                    key ->
                        key.equals("k") ? Optional.of(root.forTenant("t")) : Optional.empty()))) {
      Memory memory = root.forTenant("t");
      say(memory, "a:1", "Alice went hiking in the hills", "2023-05-20T09:00:00Z");
      say(memory, "b:1", "Alice went hiking in the hills with Bob", "2023-08-12T09:00:00Z");
      try (McpSyncClient client = McpClients.http(server.baseUri(), "k")) {
        client.initialize();
        Tool search =
            client.listTools().tools().stream()
                .filter(t -> t.name().equals("search_memories"))
                .findFirst()
                .orElseThrow();
        @SuppressWarnings("unchecked")
        Map<String, Object> props = (Map<String, Object>) search.inputSchema().get("properties");
        assertThat(props).containsKey("ranking");
        assertThat(props.get("ranking").toString()).contains("string").contains("diversity");

        for (String spec : List.of("none", "default", "dates", "default,diversity", "all")) {
          assertThat(ids(ok(client, Map.of("ranking", spec))))
              .as(spec)
              .isEqualTo(libraryIds(memory, Ranking.parse(spec, "ranking")));
        }
        // without the argument: the library's default
        assertThat(ids(ok(client, Map.of()))).isEqualTo(libraryIds(memory, Ranking.DEFAULT));
        // the steps decide here, so a ranking lost on the way would show
        assertThat(text(ok(client, Map.of("ranking", "none"))))
            .contains("Alice went hiking in the hills")
            .doesNotContain("with Bob");
        assertThat(text(ok(client, Map.of()))).contains("with Bob");
        assertThat(ids(ok(client, Map.of("ranking", "none"))))
            .isNotEqualTo(ids(ok(client, Map.of("ranking", "default"))));

        for (Object bad : List.of("dates,magic", 3, List.of("dates"))) {
          CallToolResult r = call(client, "search_memories", args(Map.of("ranking", bad)));
          assertThat(r.isError()).as(bad.toString()).isTrue();
          assertThat(text(r)).as(bad.toString()).contains("ranking").contains("Invalid argument");
          assertThat(structured(r)).as(bad.toString()).containsEntry("error", "invalid_argument");
        }
        assertThat(text(call(client, "search_memories", args(Map.of("ranking", "dates,magic")))))
            .contains("unknown ranking step 'magic'");
      }
    }
  }

  private static Map<String, Object> args(Map<String, Object> extra) {
    Map<String, Object> all = new HashMap<>(Map.of("run_id", "chat", "query", QUERY, "top_k", 1));
    all.putAll(extra);
    return all;
  }

  private static CallToolResult ok(McpSyncClient client, Map<String, Object> extra) {
    CallToolResult r = call(client, "search_memories", args(extra));
    assertThat(r.isError()).as(r.content().toString()).isFalse();
    return r;
  }

  private static List<Object> ids(CallToolResult r) {
    return results(r).stream().map(m -> m.get("id")).toList();
  }

  private static List<Object> libraryIds(Memory memory, Ranking ranking) {
    return memory
        .search(SearchRequest.builder(Scope.run("chat"), QUERY).topK(1).ranking(ranking).build())
        .hits()
        .stream()
        .map(h -> (Object) h.memory().id())
        .toList();
  }

  private static void say(Memory memory, String sourceId, String text, String at) {
    Instant t = Instant.parse(at);
    memory.add(
        AddRequest.builder(Scope.run("chat"))
            .message(new Message(Role.USER, text, "speaker", t, sourceId))
            .infer(false)
            .timestamp(t)
            .build());
  }
}

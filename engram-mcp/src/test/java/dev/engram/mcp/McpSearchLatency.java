package dev.engram.mcp;

import dev.engram.AddRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.IntConsumer;

/**
 * A measurement program, not a test: the latency of one {@code search_memories} tool call over
 * stdio and over streamable HTTP, next to the same search in process, on the embedded store with
 * the hash embedder (so the figures are the transport's and the tool layer's cost, not a model's).
 * Run: {@code java -cp <test classpath> dev.engram.mcp.McpSearchLatency [memories] [queries]}.
 * Prints p50/p95 for each path. Graph memory is off (it adds the same cost to every path).
 */
public final class McpSearchLatency {
  private static final String[] WORDS = {
    "tea",
    "coffee",
    "Lisbon",
    "Paris",
    "cello",
    "guitar",
    "puppy",
    "kitten",
    "rowing",
    "gliding",
    "cider",
    "bees",
    "kayak",
    "theremin",
    "garden",
    "novel",
    "marathon",
    "chess"
  };

  private McpSearchLatency() {}

  public static void main(String[] args) throws Exception {
    int memories = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int queries = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    Path dir = Files.createTempDirectory("mcp-latency").resolve("data");
    Scope alice = Scope.user("alice");
    Random rnd = new Random(7);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < memories; i++) {
      texts.add(
          "Alice likes "
              + WORDS[rnd.nextInt(WORDS.length)]
              + " and "
              + WORDS[rnd.nextInt(WORDS.length)]
              + " (note "
              + i
              + ")");
    }
    List<String> qs = new ArrayList<>();
    for (int i = 0; i < queries + 50; i++) {
      qs.add("does Alice like " + WORDS[rnd.nextInt(WORDS.length)] + "?");
    }
    try (Memory memory = TestMemories.open(dir, false)) {
      List<AddRequest> adds = new ArrayList<>();
      for (String t : texts) {
        adds.add(AddRequest.builder(alice).user(t).infer(false).build());
      }
      memory.addBatch(adds);
      report(
          "in process",
          queries,
          i -> memory.search(SearchRequest.builder(alice, qs.get(i)).topK(10).build()));
      try (JettyMcpServer server =
              new JettyMcpServer(McpHttpEndpoint.servlet(k -> Optional.of(memory)));
          McpSyncClient http = McpClients.http(server.baseUri(), "any")) {
        http.initialize();
        report("MCP over HTTP", queries, i -> call(http, qs.get(i), Map.of("user_id", "alice")));
      }
    }
    System.setProperty("engram.test.graph", "false");
    try (McpClients.StdioClient stdio = McpClients.stdio(McpClients.stdioServer(dir, "alice"))) {
      stdio.client().initialize();
      report("MCP over stdio", queries, i -> call(stdio.client(), qs.get(i), Map.of()));
    }
  }

  private static void call(McpSyncClient client, String query, Map<String, Object> scope) {
    Map<String, Object> args = new java.util.HashMap<>(scope);
    args.put("query", query);
    args.put("top_k", 10);
    if (Boolean.TRUE.equals(
        client.callTool(new CallToolRequest("search_memories", args)).isError())) {
      throw new IllegalStateException("search failed");
    }
  }

  private static void report(String label, int queries, IntConsumer search) {
    for (int i = 0; i < 50; i++) {
      search.accept(queries + i); // warm-up
    }
    long[] ns = new long[queries];
    for (int i = 0; i < queries; i++) {
      long start = System.nanoTime();
      search.accept(i);
      ns[i] = System.nanoTime() - start;
    }
    Arrays.sort(ns);
    System.out.printf(
        Locale.ROOT,
        "%-16s p50 %.2f ms  p95 %.2f ms  (%d searches)%n",
        label,
        ns[queries / 2] / 1e6,
        ns[(int) (queries * 0.95)] / 1e6,
        queries);
  }
}

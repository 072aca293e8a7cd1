package dev.engram.mcp;

import dev.engram.ListRequest;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.json.MemoryJson;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.util.List;
import java.util.Optional;

/**
 * Configures an MCP server (the official SDK's {@link McpServer}) with Engram's tools and
 * resources; shared by the stdio server and the HTTP endpoint so both offer the same surface.
 */
final class McpServers {
  /** The resource with the default scope's newest memories. */
  static final String MEMORIES_URI = "engram://memories";

  static final int RESOURCE_LIMIT = 100;

  static final String INSTRUCTIONS =
      "Engram is the user's long-term memory. Call search_memories before "
          + "answering anything that may depend on what the user said in earlier conversations (preferences, plans, "
          + "people, facts about them). Call add_memory when the user shares something worth remembering. Memory "
          + "ids returned by these tools can be passed to get_memory, update_memory, delete_memory and "
          + "memory_history. The scope (user_id, agent_id, run_id) defaults to the server's configuration.";

  private McpServers() {}

  static String version() {
    String v = McpServers.class.getPackage().getImplementationVersion();
    return v == null ? "development" : v;
  }

  /**
   * Adds the server info, capabilities, tools and (with a default scope) the memories resource, and
   * builds.
   */
  static <S extends McpServer.SyncSpecification<S>> McpSyncServer build(
      McpServer.SyncSpecification<S> spec,
      MemoryTools.MemorySource source,
      ScopeDefaults defaults) {
    Optional<Scope> defaultScope = defaults.scope();
    spec.serverInfo("engram", version())
        .instructions(INSTRUCTIONS)
        // The handlers check every argument themselves (ToolArguments), so that each bad argument
        // gets the same
        // tool error naming it, with structured content; the SDK's schema check would answer some
        // of them first.
        .validateToolInputs(false)
        .capabilities(ServerCapabilities.builder().tools(false).resources(false, false).build())
        .tools(new MemoryTools(defaults).specifications(source));
    defaultScope.ifPresent(scope -> spec.resources(memoriesResource(source, scope)));
    return spec.build();
  }

  private static SyncResourceSpecification memoriesResource(
      MemoryTools.MemorySource source, Scope scope) {
    Resource resource =
        Resource.builder(MEMORIES_URI, "memories")
            .title("Memories of " + scope.key())
            .description(
                "The "
                    + RESOURCE_LIMIT
                    + " newest memories of the default scope ("
                    + scope.key()
                    + "), as mem0-shaped JSON.")
            .mimeType("application/json")
            .build();
    return new SyncResourceSpecification(
        resource,
        (exchange, request) -> {
          Page<MemoryItem> page =
              source.memory(exchange).list(ListRequest.of(scope).withPage(0, RESOURCE_LIMIT));
          return ReadResourceResult.builder(
                  List.of(
                      TextResourceContents.builder(
                              MEMORIES_URI, MemoryJson.write(MemoryJson.page(page)))
                          .mimeType("application/json")
                          .build()))
              .build();
        });
  }
}

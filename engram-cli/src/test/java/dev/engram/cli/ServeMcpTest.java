package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.mcp.McpHttpEndpoint;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import dev.engram.testing.HashEmbedder;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram serve}'s assembly: MCP over streamable HTTP at /mcp beside the REST routes, on the
 * same API keys; a key's tool calls reach only its tenant. Real server, real embedded storage, the
 * MCP Java SDK's client.
 */
class ServeMcpTest {
  @TempDir Path dir;

  @Test
  void mcpAtSlashMcpUsesTheRestKeysAndTheirTenants() throws Exception {
    HashEmbedder embedder = new HashEmbedder();
    try (Memory memory =
            Engram.builder()
                .storage(EmbeddedStorage.open(dir, embedder.dimension()))
                .embedder(embedder)
                .build();
        ServerDatabase db = ServerDatabase.open(dir)) {
      SqliteApiKeyStore keys = new SqliteApiKeyStore(db, Clock.systemUTC(), false);
      String acme = keys.create("acme", KeyRole.MEMBER, "mcp").secret();
      String globex = keys.create("globex", KeyRole.MEMBER, "mcp").secret();
      EngramServer server =
          ServerAssembly.build(
                  memory,
                  ServerSettings.builder().port(0).build(),
                  keys,
                  new SqliteAddEventStore(db, false))
              .start();
      try {
        String base = "http://127.0.0.1:" + server.port();
        try (McpSyncClient client = client(base, acme)) {
          client.initialize();
          assertThat(client.listTools().tools())
              .extracting(t -> t.name())
              .contains("add_memory", "search_memories");
          CallToolResult added =
              client.callTool(
                  new CallToolRequest(
                      "add_memory",
                      Map.of("text", "Alice keeps bees", "user_id", "alice", "infer", false)));
          assertThat(added.isError()).isFalse();
          CallToolResult found =
              client.callTool(
                  new CallToolRequest(
                      "search_memories", Map.of("query", "bees", "user_id", "alice")));
          assertThat(found.content().toString()).contains("Alice keeps bees");
        }
        assertThat(memory.forTenant("acme").list(ListRequest.of(Scope.user("alice"))).items())
            .hasSize(1);
        try (McpSyncClient other = client(base, globex)) {
          other.initialize();
          CallToolResult none =
              other.callTool(
                  new CallToolRequest(
                      "search_memories", Map.of("query", "bees", "user_id", "alice")));
          assertThat(none.content().toString()).doesNotContain("Alice keeps bees");
        }
        assertThat(memory.forTenant("globex").list(ListRequest.of(Scope.user("alice"))).items())
            .isEmpty();
        HttpResponse<String> noKey =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create(base + McpHttpEndpoint.PATH))
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(
                            HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(noKey.statusCode()).isEqualTo(401);
        HttpResponse<String> rest =
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create(base + "/v1/ping/"))
                        .header("Authorization", "Token " + acme)
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(rest.body()).contains("\"org_id\":\"acme\"");
      } finally {
        server.close();
        keys.close();
      }
    }
  }

  private static McpSyncClient client(String base, String key) {
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(base)
            .endpoint(McpHttpEndpoint.PATH)
            .httpRequestCustomizer(
                (request, method, uri, body, context) ->
                    request.header("Authorization", "Bearer " + key))
            .build();
    return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
  }
}

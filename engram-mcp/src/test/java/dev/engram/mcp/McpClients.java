package dev.engram.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The official MCP Java SDK client, connected over stdio to a child process or over HTTP to a
 * servlet.
 */
final class McpClients {
  private McpClients() {}

  static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Parameters that start {@link StdioServerMain} with this JVM's class path. */
  static ServerParameters stdioServer(Path dataDir, String... defaultUser) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "-Dengram.test.graph=" + System.getProperty("engram.test.graph", "true"),
                "-cp",
                System.getProperty("java.class.path"),
                StdioServerMain.class.getName(),
                dataDir.toString()));
    args.addAll(List.of(defaultUser));
    return ServerParameters.builder(javaBinary()).args(args).build();
  }

  /** A stdio client; closing it closes the session and waits for the server process to exit. */
  record StdioClient(McpSyncClient client, StdioClientTransport transport)
      implements AutoCloseable {
    @Override
    public void close() {
      client.closeGracefully();
      transport.awaitForExit();
    }
  }

  static StdioClient stdio(ServerParameters server) {
    StdioClientTransport transport = new StdioClientTransport(server, McpJsonDefaults.getMapper());
    transport.setStdErrorHandler(line -> System.err.println("[server] " + line));
    return new StdioClient(
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(60))
            .initializationTimeout(Duration.ofSeconds(60))
            .build(),
        transport);
  }

  static McpSyncClient http(URI base, String apiKey) {
    return http(base, apiKey, List.of());
  }

  static McpSyncClient http(URI base, String apiKey, List<String> protocolVersions) {
    HttpClientStreamableHttpTransport.Builder b =
        HttpClientStreamableHttpTransport.builder(base.toString())
            .endpoint(McpHttpEndpoint.PATH)
            .httpRequestCustomizer(
                (request, method, uri, body, context) ->
                    request.header("Authorization", "Bearer " + apiKey));
    if (!protocolVersions.isEmpty()) {
      b.supportedProtocolVersions(protocolVersions);
    }
    return McpClient.sync(b.build()).requestTimeout(Duration.ofSeconds(60)).build();
  }

  static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
    return client.callTool(new CallToolRequest(tool, arguments));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> structured(CallToolResult r) {
    return (Map<String, Object>) r.structuredContent();
  }

  static String text(CallToolResult r) {
    return ((McpSchema.TextContent) r.content().get(0)).text();
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> results(CallToolResult r) {
    return (List<Map<String, Object>>) structured(r).get("results");
  }
}

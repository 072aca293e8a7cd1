package dev.engram.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.Scope;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.ProtocolVersions;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP endpoint at the protocol level: version negotiation, malformed JSON-RPC, a client that
 * disconnects mid-call, progress notifications, and the 401 body; raw HTTP where an SDK client
 * would not misbehave.
 */
class McpHttpProtocolTest {
  static final String KEY = "protocol-test-key";
  static final String OTHER_KEY = "protocol-test-other-tenant";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static Memory root;
  static JettyMcpServer server;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    root = TestMemories.open(dir.resolve("data"));
    server =
        new JettyMcpServer(
            McpHttpEndpoint.servlet(
                key ->
                    switch (key) {
                      case KEY -> Optional.of(root.forTenant("p"));
                      case OTHER_KEY -> Optional.of(root.forTenant("q"));
                      default -> Optional.empty();
                    }));
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    root.close();
  }

  record Reply(int status, Optional<String> sessionId, String body) {
    /** The JSON-RPC message of the body (plain JSON, or the last data line of an event stream). */
    JsonNode message() throws Exception {
      String json = body;
      if (!body.stripLeading().startsWith("{")) {
        json =
            body.lines()
                .filter(l -> l.startsWith("data:"))
                .reduce((a, b) -> b)
                .orElseThrow()
                .substring(5)
                .trim();
      }
      return JSON.readTree(json);
    }
  }

  static Reply post(String body, Optional<String> session) throws Exception {
    return post(body, session, KEY);
  }

  static Reply post(String body, Optional<String> session, String key) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(server.mcpUri())
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("Authorization", "Bearer " + key)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    session.ifPresent(s -> b.header("Mcp-Session-Id", s));
    HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.headers().firstValue("Mcp-Session-Id"), r.body());
  }

  static String initialize(String version) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
        + version
        + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
  }

  static String session() throws Exception {
    Reply init = post(initialize(ProtocolVersions.MCP_2025_11_25), Optional.empty());
    assertThat(init.status()).isEqualTo(200);
    String session = init.sessionId().orElseThrow();
    assertThat(
            post(
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    Optional.of(session))
                .status())
        .isBetween(200, 299);
    return session;
  }

  @Test
  void negotiatesEveryVersionTheTransportSupports() throws Exception {
    for (String version :
        List.of(
            ProtocolVersions.MCP_2025_11_25,
            ProtocolVersions.MCP_2025_06_18,
            ProtocolVersions.MCP_2025_03_26)) {
      Reply r = post(initialize(version), Optional.empty());
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.message().at("/result/protocolVersion").asText()).as(version).isEqualTo(version);
    }
    Reply unknown = post(initialize("1999-01-01"), Optional.empty());
    assertThat(unknown.message().at("/result/protocolVersion").asText())
        .isEqualTo(ProtocolVersions.MCP_2025_11_25);
  }

  @Test
  void javaClientNegotiatesItsLatestAndPreviousVersions() {
    try (McpSyncClient latest = McpClients.http(server.baseUri(), KEY)) {
      assertThat(latest.initialize().protocolVersion()).isEqualTo(ProtocolVersions.MCP_2025_11_25);
      assertThat(latest.listTools().tools()).hasSize(10);
    }
    try (McpSyncClient previous =
        McpClients.http(server.baseUri(), KEY, List.of(ProtocolVersions.MCP_2025_06_18))) {
      assertThat(previous.initialize().protocolVersion())
          .isEqualTo(ProtocolVersions.MCP_2025_06_18);
      var r = McpClients.call(previous, "list_memories", Map.of("user_id", "nobody"));
      assertThat(r.isError()).isFalse();
    }
  }

  @Test
  void malformedJsonRpcIsRefusedWithoutA5xxAndTheSessionStaysUp() throws Exception {
    String session = session();
    for (String bad :
        List.of(
            "this is not JSON",
            "{\"jsonrpc\":\"2.0\",\"id\":",
            "[1,2,3]",
            "{}",
            "\"text\"",
            "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":42}}",
            "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"no/such/method\"}")) {
      Reply r = post(bad, Optional.of(session));
      assertThat(r.status()).as(bad).isLessThan(500);
      if (r.status() == 200) {
        assertThat(r.message().has("error")).as(bad).isTrue();
      } else {
        assertThat(r.status()).as(bad).isBetween(400, 499);
      }
    }
    assertThat(
            post(
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
                    Optional.of("no-such-session"))
                .status())
        .isEqualTo(404);
    Reply ok =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"add_memory\","
                + "\"arguments\":{\"user_id\":\"mal\",\"text\":\"Mal keeps bees\",\"infer\":false}}}",
            Optional.of(session));
    assertThat(ok.status()).isEqualTo(200);
    assertThat(ok.message().at("/result/structuredContent/results/0/memory").asText())
        .isEqualTo("Mal keeps bees");
  }

  @Test
  void aClientThatDisconnectsMidCallLeavesAllOrNothing() throws Exception {
    String session = session();
    int n = 200;
    StringBuilder messages = new StringBuilder();
    for (int i = 0; i < n; i++) {
      messages
          .append(i == 0 ? "" : ",")
          .append("{\"role\":\"user\",\"content\":\"Fact ")
          .append(i)
          .append(" about gliding\"}");
    }
    byte[] body =
        ("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"add_memory\","
                + "\"arguments\":{\"user_id\":\"gone\",\"infer\":false,\"messages\":["
                + messages
                + "]}}}")
            .getBytes(StandardCharsets.UTF_8);
    URI uri = server.mcpUri();
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /mcp HTTP/1.1\r\nHost: "
                  + uri.getHost()
                  + ":"
                  + uri.getPort()
                  + "\r\n"
                  + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                  + "Authorization: Bearer "
                  + KEY
                  + "\r\nMcp-Session-Id: "
                  + session
                  + "\r\n"
                  + "Content-Length: "
                  + body.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
    } // closed before any response is read
    Memory memory = root.forTenant("p");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    long stored;
    do {
      stored = memory.list(ListRequest.of(Scope.user("gone")).withPage(0, 1000)).total();
      assertThat(stored).isIn(0L, (long) n);
      Thread.sleep(100);
    } while (stored != n && System.nanoTime() < deadline);
    // the server still serves, on the same session and on new ones
    Reply list =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"list_memories\","
                + "\"arguments\":{\"user_id\":\"gone\",\"limit\":1}}}",
            Optional.of(session));
    assertThat(list.message().at("/result/structuredContent/total").asLong()).isEqualTo(stored);
    assertThat(session()).isNotBlank();
  }

  @Test
  void theTenantIsTheKeyOfEachRequestNotOfTheSession() throws Exception {
    String session = session(); // opened with KEY (tenant p)
    Reply added =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"add_memory\",\"arguments\":{\"user_id\":\"sess\",\"text\":\"Sess owns a red kayak\",\"infer\":false}}}",
            Optional.of(session),
            OTHER_KEY);
    assertThat(added.status()).isEqualTo(200);
    String id = added.message().at("/result/structuredContent/results/0/id").asText();
    assertThat(root.forTenant("q").get(id)).isPresent();
    assertThat(root.forTenant("p").get(id)).isEmpty();
    // and the session's own key does not see what the other key wrote
    Reply read =
        post(
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"get_memory\",\"arguments\":{\"user_id\":\"sess\",\"memory_id\":\""
                + id
                + "\"}}}",
            Optional.of(session));
    assertThat(read.message().at("/result/isError").asBoolean()).isTrue();
    assertThat(
            post(
                    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}",
                    Optional.of(session),
                    "bad-key")
                .status())
        .isEqualTo(401);
  }

  @Test
  void longAddsReportProgressWhenAskedTo() throws Exception {
    List<ProgressNotification> seen = new CopyOnWriteArrayList<>();
    HttpClientStreamableHttpTransport transport =
        HttpClientStreamableHttpTransport.builder(server.baseUri().toString())
            .endpoint(McpHttpEndpoint.PATH)
            .httpRequestCustomizer(
                (request, method, uri, body, context) ->
                    request.header("Authorization", "Bearer " + KEY))
            .build();
    try (McpSyncClient client = McpClient.sync(transport).progressConsumer(seen::add).build()) {
      client.initialize();
      var r =
          client.callTool(
              new CallToolRequest(
                  "add_memory",
                  Map.of("user_id", "prog", "text", "Prog sails on Saturdays", "infer", true),
                  Map.of("progressToken", "add-1")));
      assertThat(r.isError()).isFalse();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (seen.size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(seen).hasSize(2).allSatisfy(p -> assertThat(p.progressToken()).isEqualTo("add-1"));
      // the server sends them in order, but the SDK's client may hand them to the consumer in
      // either order
      List<ProgressNotification> byProgress =
          seen.stream()
              .sorted(java.util.Comparator.comparingDouble(ProgressNotification::progress))
              .toList();
      assertThat(byProgress.get(0).progress()).isZero();
      assertThat(byProgress.get(0).message()).contains("remembering");
      assertThat(byProgress.get(1).progress()).isEqualTo(1.0).isEqualTo(byProgress.get(1).total());
      assertThat(byProgress.get(1).message()).contains("stored");
    }
  }

  @Test
  void unauthorizedRequestsGet401WithAJsonBodyAndNoSession() throws Exception {
    for (Optional<String> header :
        List.of(
            Optional.<String>empty(),
            Optional.of("Bearer nope"),
            Optional.of("Token " + KEY),
            Optional.of("Bearer "),
            Optional.of(KEY))) {
      HttpRequest.Builder b =
          HttpRequest.newBuilder(server.mcpUri())
              .header("Content-Type", "application/json")
              .header("Accept", "application/json, text/event-stream")
              .POST(
                  HttpRequest.BodyPublishers.ofString(initialize(ProtocolVersions.MCP_2025_11_25)));
      header.ifPresent(h -> b.header("Authorization", h));
      HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(header.toString()).isEqualTo(401);
      assertThat(r.headers().firstValue("WWW-Authenticate"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
      assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
      assertThat(JSON.readTree(r.body()).get("error").asText()).isEqualTo("unauthorized");
      assertThat(r.body()).doesNotContain(KEY);
    }
    HttpResponse<String> get =
        HTTP.send(
            HttpRequest.newBuilder(server.mcpUri()).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(401);
  }
}

package dev.engram.mcp;

import dev.engram.Memory;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engram's MCP server over streamable HTTP, as a servlet to mount at {@value #PATH} in any Jakarta
 * Servlet 6 container (async support on). Every request must carry {@code Authorization: Bearer
 * <key>}: the {@link McpAuthenticator} maps the key to its tenant's {@link Memory}, a missing or
 * unknown key gets 401 before the MCP layer sees the request, and every tool call of the request
 * uses that tenant's memory (never a tenant named in an argument). Browser origins other than
 * localhost are refused (DNS-rebinding protection).
 *
 * <pre>{@code
 * ServletHolder holder = new ServletHolder(McpHttpEndpoint.servlet(authenticator));
 * holder.setAsyncSupported(true);
 * contextHandler.addServlet(holder, McpHttpEndpoint.PATH);
 * }</pre>
 */
public final class McpHttpEndpoint {
  /** Where the endpoint is mounted by default. */
  public static final String PATH = "/mcp";

  private static final String MEMORY_KEY = "engram.memory";
  private static final Logger LOG = LoggerFactory.getLogger(McpHttpEndpoint.class);

  private McpHttpEndpoint() {}

  /**
   * The servlet with default settings: mounted at {@value #PATH}, no default scope, localhost
   * origins only.
   */
  public static HttpServlet servlet(McpAuthenticator authenticator) {
    return builder(authenticator).build();
  }

  /** A builder for the servlet. */
  public static Builder builder(McpAuthenticator authenticator) {
    return new Builder(authenticator);
  }

  /** Settings of the HTTP endpoint. Not thread-safe. */
  public static final class Builder {
    private final McpAuthenticator authenticator;
    private String path = PATH;
    private ScopeDefaults defaults = ScopeDefaults.none();
    private List<String> allowedOrigins =
        List.of(
            "http://localhost:*",
            "http://127.0.0.1:*",
            "https://localhost:*",
            "https://127.0.0.1:*");
    private Duration keepAlive = Duration.ofSeconds(30);

    private Builder(McpAuthenticator authenticator) {
      this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
    }

    /** The path the servlet is mounted at (default {@value #PATH}). */
    public Builder path(String value) {
      if (!value.startsWith("/")) {
        throw new IllegalArgumentException("path must start with '/': " + value);
      }
      this.path = value;
      return this;
    }

    /** The scope a tool call uses when it names none (default: none, every call must name one). */
    public Builder defaults(ScopeDefaults value) {
      this.defaults = Objects.requireNonNull(value, "defaults");
      return this;
    }

    /**
     * Browser origins allowed to call (patterns such as {@code http://localhost:*}); requests
     * without an Origin header (non-browser clients) are always allowed.
     */
    public Builder allowedOrigins(List<String> origins) {
      this.allowedOrigins = List.copyOf(origins);
      return this;
    }

    /** How often idle sessions are pinged (default 30 s). */
    public Builder keepAlive(Duration value) {
      this.keepAlive = Objects.requireNonNull(value, "keepAlive");
      return this;
    }

    /** The servlet; its MCP server is closed when the container destroys the servlet. */
    public HttpServlet build() {
      HttpServletStreamableServerTransportProvider transport =
          HttpServletStreamableServerTransportProvider.builder()
              .jsonMapper(McpJsonDefaults.getMapper())
              .mcpEndpoint(path)
              .keepAliveInterval(keepAlive)
              .httpHeaderValidator(
                  DefaultServerTransportSecurityValidator.builder()
                      .allowedOrigins(allowedOrigins)
                      .build())
              .contextExtractor(
                  request ->
                      McpTransportContext.create(
                          Map.of(MEMORY_KEY, request.getAttribute(MEMORY_KEY))))
              .build();
      McpSyncServer server =
          McpServers.build(McpServer.sync(transport), McpHttpEndpoint::memoryOf, defaults);
      return new AuthenticatingServlet(authenticator, transport, server);
    }
  }

  private static Memory memoryOf(McpSyncServerExchange exchange) {
    Object memory = exchange.transportContext().get(MEMORY_KEY);
    if (memory instanceof Memory m) {
      return m;
    }
    throw new IllegalStateException(
        "the request reached the MCP layer without an authenticated tenant");
  }

  /** Authenticates each request, then hands it to the SDK's streamable HTTP servlet. */
  private static final class AuthenticatingServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private final transient McpAuthenticator authenticator;
    private final transient HttpServletStreamableServerTransportProvider transport;
    private final transient McpSyncServer server;

    AuthenticatingServlet(
        McpAuthenticator authenticator,
        HttpServletStreamableServerTransportProvider transport,
        McpSyncServer server) {
      this.authenticator = authenticator;
      this.transport = transport;
      this.server = server;
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
      super.init(config);
      transport.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
        throws ServletException, IOException {
      Optional<Memory> memory = bearerKey(request).flatMap(authenticator::authenticate);
      if (memory.isEmpty()) {
        unauthorized(
            response,
            request.getHeader("Authorization") == null
                ? "missing Authorization: Bearer <key> header"
                : "invalid API key");
        return;
      }
      request.setAttribute(MEMORY_KEY, memory.get());
      transport.service(request, response);
    }

    @Override
    public void destroy() {
      try {
        server.closeGracefully();
      } catch (RuntimeException e) {
        LOG.warn("the MCP server did not close cleanly", e);
      }
      transport.destroy();
      super.destroy();
    }

    private static Optional<String> bearerKey(HttpServletRequest request) {
      String header = request.getHeader("Authorization");
      if (header == null) {
        return Optional.empty();
      }
      String h = header.trim();
      if (h.length() < 7 || !h.regionMatches(true, 0, "Bearer ", 0, 7)) {
        return Optional.empty();
      }
      String key = h.substring(7).trim();
      return key.isEmpty() ? Optional.empty() : Optional.of(key);
    }

    private static void unauthorized(HttpServletResponse response, String detail)
        throws IOException {
      response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
      response.setHeader("WWW-Authenticate", "Bearer realm=\"engram\"");
      response.setContentType("application/json");
      response.setCharacterEncoding("UTF-8");
      byte[] body =
          ("{\"error\":\"unauthorized\",\"detail\":\"" + detail + "\"}")
              .getBytes(StandardCharsets.UTF_8);
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
    }
  }
}

package dev.engram.mcp;

import jakarta.servlet.http.HttpServlet;
import java.net.URI;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** A plain embedded Jetty 12 (ee10) on 127.0.0.1, a free port, with one servlet mounted at /mcp. */
final class JettyMcpServer implements AutoCloseable {
  private final Server server;
  private final ServerConnector connector;

  JettyMcpServer(HttpServlet servlet) throws Exception {
    server = new Server();
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler();
    context.setContextPath("/");
    ServletHolder holder = new ServletHolder(servlet);
    holder.setAsyncSupported(true);
    context.addServlet(holder, McpHttpEndpoint.PATH);
    server.setHandler(context);
    server.start();
  }

  URI baseUri() {
    return URI.create("http://127.0.0.1:" + connector.getLocalPort());
  }

  URI mcpUri() {
    return baseUri().resolve(McpHttpEndpoint.PATH);
  }

  @Override
  public void close() throws Exception {
    server.stop();
  }
}

package dev.engram.mcp;

import dev.engram.Memory;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engram's MCP server over stdio (one client, the process that started this one): JSON-RPC frames on stdin and
 * stdout, logs on stderr. Used by {@code engram mcp}.
 */
public final class McpStdioServer {
  private static final Logger LOG = LoggerFactory.getLogger(McpStdioServer.class);

  private McpStdioServer() {}

  /**
   * Serves {@code memory} on this process's stdin and stdout until stdin is closed, then closes the MCP session
   * (the memory stays open: the caller owns it). While it runs, {@link System#out} is pointed at stderr, so that a
   * stray print cannot corrupt the protocol stream; it is restored afterwards.
   *
   * @param memory   the memory (tenant view) every tool call uses
   * @param defaults the scope used when a call names none
   */
  public static void run(Memory memory, ScopeDefaults defaults) throws InterruptedException {
    PrintStream protocolOut = System.out;
    System.setOut(System.err);
    try {
      run(memory, defaults, System.in, protocolOut);
    } finally {
      protocolOut.flush();
      System.setOut(protocolOut);
    }
  }

  /** {@link #run(Memory, ScopeDefaults)} over the given streams; returns when {@code in} ends. */
  public static void run(Memory memory, ScopeDefaults defaults, InputStream in, OutputStream out)
      throws InterruptedException {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(defaults, "defaults");
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched = new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        return ended(super.read());
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return ended(super.read(b, off, len));
        } catch (IOException e) {
          ended.countDown();
          throw e;
        }
      }

      private int ended(int n) {
        if (n < 0) {
          ended.countDown();
        }
        return n;
      }
    };
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(McpJsonDefaults.getMapper(), watched, out);
    McpSyncServer server = McpServers.build(McpServer.sync(transport), exchange -> memory, defaults);
    LOG.info("MCP server on stdio for tenant {}{}", memory.tenant(),
        defaults.scope().map(s -> ", default scope " + s.key()).orElse(", no default scope"));
    try {
      ended.await();
    } finally {
      server.closeGracefully();
      LOG.info("MCP stdio session ended (stdin closed)");
    }
  }
}

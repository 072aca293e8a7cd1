package dev.engram.mcp;

import dev.engram.Memory;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engram's MCP server over stdio (one client, the process that started this one): JSON-RPC frames
 * on stdin and stdout, logs on stderr. Used by {@code engram mcp}.
 */
public final class McpStdioServer {
  private static final Logger LOG = LoggerFactory.getLogger(McpStdioServer.class);

  /** Longest accepted JSON-RPC line. */
  static final int MAX_FRAME_BYTES = 16 * 1024 * 1024;

  /** How long requests read before stdin closed may take to be answered. */
  static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

  private McpStdioServer() {}

  /**
   * Serves {@code memory} on this process's stdin and stdout until stdin is closed, then closes the
   * MCP session (the memory stays open: the caller owns it). While it runs, {@link System#out} is
   * pointed at stderr, so that a stray print cannot corrupt the protocol stream; it is restored
   * afterwards.
   *
   * @param memory the memory (tenant view) every tool call uses
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

  /**
   * {@link #run(Memory, ScopeDefaults)} over the given streams; returns when {@code in} has ended
   * and every request read before has been answered.
   */
  public static void run(Memory memory, ScopeDefaults defaults, InputStream in, OutputStream out)
      throws InterruptedException {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(defaults, "defaults");
    McpJsonMapper mapper = McpJsonDefaults.getMapper();
    StdioFrames frames =
        new StdioFrames(in, out, mapper, MAX_FRAME_BYTES, DRAIN_TIMEOUT.toMillis());
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(mapper, frames, frames.output(), MAX_FRAME_BYTES);
    McpSyncServer server =
        McpServers.build(McpServer.sync(transport), exchange -> memory, defaults);
    LOG.info(
        "MCP server on stdio for tenant {}{}",
        memory.tenant(),
        defaults.scope().map(s -> ", default scope " + s.key()).orElse(", no default scope"));
    try {
      frames.ended().await();
      frames.awaitAnswered(DRAIN_TIMEOUT.toMillis());
    } finally {
      server.closeGracefully();
      LOG.info("MCP stdio session ended (stdin closed)");
    }
  }
}

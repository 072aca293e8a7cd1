package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.mcp.McpStdioServer;
import dev.engram.mcp.ScopeDefaults;
import java.io.PrintStream;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code engram mcp}: serves the memory in the data directory to an MCP host over stdio (JSON-RPC
 * on stdin and stdout) until stdin closes. Logs go to stderr; from the start of the command, {@code
 * System.out} is pointed at stderr, so nothing but protocol frames reaches stdout.
 */
@Command(
    name = "mcp",
    description = {
      "Serve the memory to an MCP host (Claude Desktop or Code, Cursor, VS Code...) over stdio until "
          + "stdin closes.",
      "Tool calls that name no user_id, agent_id or run_id use the defaults given here or in $"
          + ScopeDefaults.USER_ENV
          + ", $"
          + ScopeDefaults.AGENT_ENV
          + " and $"
          + ScopeDefaults.RUN_ENV
          + " (the options win)."
    })
final class McpCommand extends BaseCommand {
  @Mixin ScopeOptions scope;

  @Override
  protected int run() throws Exception {
    ScopeDefaults defaults =
        ScopeDefaults.fromEnvironment(System.getenv())
            .overriddenBy(
                new ScopeDefaults(
                    Optional.ofNullable(scope.userId),
                    Optional.ofNullable(scope.agentId),
                    Optional.ofNullable(scope.runId)));
    PrintStream protocol = System.out;
    System.setOut(System.err);
    try (Memory memory = openMemory(true)) {
      McpStdioServer.run(memory, defaults, System.in, protocol);
    } finally {
      protocol.flush();
      System.setOut(protocol);
    }
    return EXIT_OK;
  }
}

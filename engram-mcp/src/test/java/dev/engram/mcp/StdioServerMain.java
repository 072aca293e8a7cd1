package dev.engram.mcp;

import dev.engram.Memory;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The stdio server as a child process for the tests: {@code java -cp <test classpath>
 * dev.engram.mcp.StdioServerMain DATA_DIR [USER_ID]} serves the embedded memory in DATA_DIR (hash
 * embedder, offline graph on unless the system property {@code engram.test.graph} is {@code false})
 * until stdin closes.
 */
public final class StdioServerMain {
  private StdioServerMain() {}

  public static void main(String[] args) throws Exception {
    ScopeDefaults defaults =
        args.length > 1
            ? new ScopeDefaults(Optional.of(args[1]), Optional.empty(), Optional.empty())
            : ScopeDefaults.none();
    try (Memory memory =
        TestMemories.open(
            Path.of(args[0]), !"false".equals(System.getProperty("engram.test.graph")))) {
      McpStdioServer.run(memory, defaults);
    }
  }
}

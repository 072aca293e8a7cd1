package dev.engram.mcp;

import dev.engram.Memory;
import java.util.Optional;

/**
 * Maps the API key of an HTTP request ({@code Authorization: Bearer <key>}) to the memory of the
 * key's tenant. The MCP endpoint answers 401 when this returns empty, before the request reaches
 * the MCP layer; tool calls of the request then read and write only the returned view.
 * Implementations must be thread-safe, compare keys in constant time and never log them.
 */
@FunctionalInterface
public interface McpAuthenticator {

  /**
   * The tenant view for a key, or empty if the key is unknown or revoked.
   *
   * @param apiKey the key as sent, never blank
   */
  Optional<Memory> authenticate(String apiKey);
}

package dev.engram.cli;

import dev.engram.Memory;
import dev.engram.Tenants;
import dev.engram.mcp.McpAuthenticator;
import dev.engram.mcp.McpHttpEndpoint;
import dev.engram.server.EngramServer;
import dev.engram.server.ServerSettings;
import dev.engram.server.auth.ApiKeyStore;
import dev.engram.server.events.AddEventStore;
import java.util.Optional;

/**
 * What {@code engram serve} runs: the REST server over a memory, with the MCP streamable HTTP
 * endpoint mounted at {@code /mcp} behind the same API keys ({@code Authorization: Bearer <key>};
 * the tenant comes from the key). With {@code --insecure-no-auth} (loopback only) any bearer value
 * acts for the {@code default} tenant, as the REST routes do.
 */
final class ServerAssembly {
  private ServerAssembly() {}

  static EngramServer build(
      Memory memory, ServerSettings settings, ApiKeyStore keys, AddEventStore events) {
    McpAuthenticator mcpKeys =
        settings.insecureNoAuth()
            ? key -> Optional.of(memory.forTenant(Tenants.DEFAULT))
            : key -> keys.authenticate(key).map(p -> memory.forTenant(p.tenant()));
    return EngramServer.builder(memory)
        .settings(settings)
        .keys(keys)
        .events(events)
        .servlet(McpHttpEndpoint.PATH, McpHttpEndpoint.servlet(mcpKeys))
        .build();
  }
}

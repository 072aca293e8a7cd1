package dev.engram.mcp;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress notifications of one tool call, sent only when the client asked for them with a {@code
 * _meta.progressToken}. A notification that cannot be delivered (the client went away) does not
 * fail the call: the work it reports on still completes or fails on its own.
 */
final class Progress {
  private static final Logger LOG = LoggerFactory.getLogger(Progress.class);
  private static final Progress NONE = new Progress(null, null);

  private final McpSyncServerExchange exchange;
  private final Object token;

  private Progress(McpSyncServerExchange exchange, Object token) {
    this.exchange = exchange;
    this.token = token;
  }

  static Progress of(McpSyncServerExchange exchange, CallToolRequest request) {
    Map<String, Object> meta = request.meta();
    Object token = meta == null ? null : meta.get("progressToken");
    return exchange == null || token == null ? NONE : new Progress(exchange, token);
  }

  void report(double done, double total, String message) {
    if (token == null) {
      return;
    }
    try {
      exchange.progressNotification(
          ProgressNotification.builder(token, done).total(total).message(message).build());
    } catch (RuntimeException e) {
      LOG.debug("a progress notification could not be sent: {}", e.toString());
    }
  }
}

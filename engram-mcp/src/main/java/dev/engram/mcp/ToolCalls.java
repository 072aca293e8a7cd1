package dev.engram.mcp;

import dev.engram.EngramException;
import dev.engram.LanguageModelException;
import dev.engram.ValidationException;
import dev.engram.json.MemoryJson;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one tool call and turns its outcome into a {@link CallToolResult}: the text and structured
 * content on success; a tool error ({@code isError: true}) naming the argument for bad input, or
 * stating what failed otherwise. A failure never escapes into the protocol layer, so the session
 * stays up. Unexpected failures are logged with their stack trace (to stderr); arguments are not
 * logged.
 */
final class ToolCalls {
  private static final Logger LOG = LoggerFactory.getLogger(ToolCalls.class);

  private ToolCalls() {}

  static CallToolResult run(String tool, Supplier<MemoryTools.ToolOutcome> call) {
    try {
      MemoryTools.ToolOutcome outcome = call.get();
      return CallToolResult.builder()
          .addTextContent(outcome.text())
          .structuredContent(toMap(outcome.structured()))
          .isError(false)
          .build();
    } catch (ValidationException e) {
      String detail =
          e.getMessage().startsWith(e.field() + ": ")
              ? e.getMessage().substring(e.field().length() + 2)
              : e.getMessage();
      return error(
          "invalid_argument",
          e.field(),
          "Invalid argument '" + e.field() + "': " + detail + " Nothing was changed.");
    } catch (LanguageModelException e) {
      LOG.warn("tool {} failed in the language model: {}", tool, e.getMessage());
      return error(
          "model_failed",
          null,
          "The language model failed: "
              + e.getMessage()
              + " Nothing was changed;"
              + " try again later or with infer=false.");
    } catch (EngramException e) {
      LOG.warn("tool {} failed: {}", tool, e.getMessage(), e);
      return error("failed", null, tool + " failed: " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("tool {} failed unexpectedly", tool, e);
      return error(
          "internal_error",
          null,
          tool
              + " failed with an internal error ("
              + e.getClass().getSimpleName()
              + "); the server log has the details.");
    }
  }

  private static CallToolResult error(String kind, String argument, String text) {
    var json = MemoryJson.mapper().createObjectNode();
    json.put("error", kind);
    if (argument != null) {
      json.put("argument", argument);
    }
    json.put("detail", text);
    return CallToolResult.builder()
        .addTextContent(text)
        .structuredContent(toMap(json))
        .isError(true)
        .build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> toMap(com.fasterxml.jackson.databind.JsonNode node) {
    return MemoryJson.mapper().convertValue(node, Map.class);
  }
}

package dev.engram.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.json.MemoryJson;
import dev.engram.server.http.Access;
import dev.engram.server.http.RouteTable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3.1 document of the server: paths, methods, summaries and security from the {@link
 * RouteTable} (so no route is ever served undocumented), request and response schemas from {@code
 * openapi-operations.json}, where every route must have an entry (a test checks it), and shared
 * schemas from its {@code components}.
 */
public final class OpenApiDocument {
  private static final Pattern PARAM = Pattern.compile("\\{([a-z_]+)}");

  private OpenApiDocument() {}

  /** The operations resource: {@code {"operations": {"GET /path": {...}}, "components": {...}}}. */
  public static ObjectNode operations() {
    try (InputStream in = OpenApiDocument.class.getResourceAsStream("openapi-operations.json")) {
      if (in == null) {
        throw new IllegalStateException("openapi-operations.json is missing from the jar");
      }
      return (ObjectNode) MemoryJson.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The key of a route in the operations resource. */
  public static String key(RouteTable.Route r) {
    return r.method().name() + " " + r.path();
  }

  /** Builds the document for these routes. */
  public static ObjectNode build(List<RouteTable.Route> routes, String version) {
    ObjectNode ops = operations();
    ObjectNode doc = MemoryJson.mapper().createObjectNode();
    doc.put("openapi", "3.1.0");
    ObjectNode info = doc.putObject("info");
    info.put("title", "Engram");
    info.put("version", version);
    info.put(
        "description",
        "Long-term memory for LLM agents: mem0's hosted (/v1, /v2, /v3, trailing slashes) and"
            + " self-hosted (/memories, /search) REST APIs, Engram's graph and operations routes. Every route but the"
            + " public ones needs an API key: Authorization: Token <key>, Bearer <key>, or X-API-Key.");
    ObjectNode components =
        ops.has("components")
            ? (ObjectNode) ops.get("components").deepCopy()
            : MemoryJson.mapper().createObjectNode();
    ObjectNode schemes = components.putObject("securitySchemes");
    schemes
        .putObject("token")
        .put("type", "apiKey")
        .put("in", "header")
        .put("name", "Authorization")
        .put("description", "Token <key> or Bearer <key>");
    schemes.putObject("apiKey").put("type", "apiKey").put("in", "header").put("name", "X-API-Key");
    doc.set("components", components);
    ObjectNode paths = doc.putObject("paths");
    for (RouteTable.Route r : routes) {
      ObjectNode path =
          paths.has(r.path()) ? (ObjectNode) paths.get(r.path()) : paths.putObject(r.path());
      ObjectNode op = path.putObject(r.method().name().toLowerCase(Locale.ROOT));
      op.put("summary", r.summary());
      op.put("operationId", operationId(r));
      ArrayNode params = op.putArray("parameters");
      Matcher m = PARAM.matcher(r.path());
      while (m.find()) {
        ObjectNode p = params.addObject();
        p.put("name", m.group(1));
        p.put("in", "path");
        p.put("required", true);
        p.putObject("schema").put("type", "string");
      }
      JsonNode detail = ops.path("operations").path(key(r));
      if (detail.has("parameters")) {
        detail.get("parameters").forEach(params::add);
      }
      if (detail.has("requestBody")) {
        op.set("requestBody", detail.get("requestBody"));
      }
      ObjectNode responses = op.putObject("responses");
      if (detail.has("responses")) {
        responses.setAll((ObjectNode) detail.get("responses"));
      }
      if (!responses.has("200")) {
        responses.putObject("200").put("description", "OK");
      }
      if (r.access() != Access.PUBLIC) {
        responses
            .putObject("401")
            .put("description", "no, bad or revoked key")
            .putObject("content")
            .putObject("application/json")
            .putObject("schema")
            .put("$ref", "#/components/schemas/Error");
        ArrayNode security = op.putArray("security");
        security.addObject().putArray("token");
        security.addObject().putArray("apiKey");
      }
      if (r.access() == Access.ADMIN) {
        responses.putObject("403").put("description", "the key is not an admin key");
      }
    }
    return doc;
  }

  private static String operationId(RouteTable.Route r) {
    String p =
        r.path().replaceAll("[{}]", "").replaceAll("[^A-Za-z0-9]+", "_").replaceAll("^_|_$", "");
    return r.method().name().toLowerCase(Locale.ROOT) + "_" + (p.isEmpty() ? "root" : p);
  }

  /** A plain HTML page listing the routes, with no external resources. */
  public static String page(List<RouteTable.Route> routes) {
    StringBuilder b = new StringBuilder();
    b.append(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Engram API</title>")
        .append(
            "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}")
        .append(
            "table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;")
        .append("text-align:left;vertical-align:top}code{font-size:.95em}</style></head><body>")
        .append(
            "<h1>Engram REST API</h1><p>The machine-readable document is <a href=\"/openapi.json\">")
        .append(
            "/openapi.json</a>. Authenticate with <code>Authorization: Token &lt;key&gt;</code>,")
        .append(
            " <code>Bearer &lt;key&gt;</code> or <code>X-API-Key</code>.</p><table><thead><tr><th>method</th>")
        .append("<th>path</th><th>access</th><th>what it does</th></tr></thead><tbody>");
    for (RouteTable.Route r : routes) {
      b.append("<tr><td>")
          .append(r.method().name())
          .append("</td><td><code>")
          .append(escape(r.path()))
          .append("</code></td><td>")
          .append(r.access().name().toLowerCase(Locale.ROOT))
          .append("</td><td>")
          .append(escape(r.summary()))
          .append("</td></tr>");
    }
    return b.append("</tbody></table></body></html>").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}

package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.server.http.Access;
import dev.engram.server.http.RouteTable;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAPI document: {@code openapi-operations.json} has exactly one entry per route of {@link
 * EngramServer#routes()} (a new route without one, or an entry for a route that does not exist,
 * fails here); the served {@code /openapi.json} parses as OpenAPI 3.1 (swagger-parser) with every
 * route, every {@code $ref} resolved and every route's query parameters and JSON bodies described;
 * {@code /docs} lists every route.
 */
class OpenApiDocumentTest {
  private static final Pattern REF =
      Pattern.compile("\"\\$ref\"\\s*:\\s*\"#/components/schemas/([A-Za-z0-9_]+)\"");

  @TempDir Path dir;
  ServerFixture f;

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void everyRouteHasAnEntryAndEveryEntryARoute() {
    Set<String> routes = new TreeSet<>();
    f.server.routes().forEach(r -> routes.add(OpenApiDocument.key(r)));
    Set<String> entries = new TreeSet<>();
    OpenApiDocument.operations().path("operations").fieldNames().forEachRemaining(entries::add);
    Set<String> missing = new TreeSet<>(routes);
    missing.removeAll(entries);
    Set<String> stale = new TreeSet<>(entries);
    stale.removeAll(routes);
    assertThat(missing).as("routes without an entry in openapi-operations.json").isEmpty();
    assertThat(stale)
        .as("entries in openapi-operations.json for routes that do not exist")
        .isEmpty();
    assertThat(routes).hasSizeGreaterThanOrEqualTo(40);
  }

  @Test
  void everyEntryDescribesItsAnswerAndItsBody() {
    JsonNode ops = OpenApiDocument.operations().path("operations");
    List<String> problems = new ArrayList<>();
    for (RouteTable.Route r : f.server.routes()) {
      JsonNode op = ops.path(OpenApiDocument.key(r));
      JsonNode ok = op.path("responses").path("200");
      if (!ok.path("content").isObject() || ok.path("content").isEmpty()) {
        problems.add(OpenApiDocument.key(r) + ": no 200 content schema");
      }
      boolean takesBody =
          (r.method().name().equals("POST")
                  || r.method().name().equals("PUT")
                  || r.path().equals("/v1/batch/"))
              && !r.path().equals("/reset")
              && !r.path().equals("/v1/memories/purge-expired/");
      if (takesBody && !op.path("requestBody").path("content").has("application/json")) {
        problems.add(OpenApiDocument.key(r) + ": no JSON requestBody");
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theServedDocumentIsOpenApi31WithEveryRouteAndResolvedReferences() {
    var served = f.call("GET", "/openapi.json", null, null);
    assertThat(served.status()).isEqualTo(200);
    assertThat(served.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/json");
    JsonNode doc = served.json();
    assertThat(doc.path("openapi").asText()).isEqualTo("3.1.0");

    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(served.body(), null, options);
    assertThat(parsed.getMessages()).as("swagger-parser messages").isEmpty();
    OpenAPI api = parsed.getOpenAPI();
    assertThat(api).isNotNull();
    assertThat(api.getSpecVersion()).isEqualTo(SpecVersion.V31);

    List<String> absent = new ArrayList<>();
    for (RouteTable.Route r : f.server.routes()) {
      var item = api.getPaths().get(r.path());
      var op =
          item == null
              ? null
              : switch (r.method().name()) {
                case "GET" -> item.getGet();
                case "POST" -> item.getPost();
                case "PUT" -> item.getPut();
                case "DELETE" -> item.getDelete();
                default -> null;
              };
      if (op == null) {
        absent.add(OpenApiDocument.key(r));
        continue;
      }
      assertThat(op.getResponses()).as(r.path()).containsKey("200");
      if (r.access() != Access.PUBLIC) {
        assertThat(op.getSecurity()).as(r.path()).isNotEmpty();
        assertThat(op.getResponses()).as(r.path()).containsKey("401");
      }
      if (r.access() == Access.ADMIN) {
        assertThat(op.getResponses()).as(r.path()).containsKey("403");
      }
      long pathParams = r.path().chars().filter(c -> c == '{').count();
      assertThat(
              op.getParameters() == null
                  ? 0
                  : op.getParameters().stream().filter(p -> p.getIn().equals("path")).count())
          .as(r.path())
          .isEqualTo(pathParams);
    }
    assertThat(absent).as("routes missing from /openapi.json").isEmpty();

    Set<String> defined = new HashSet<>();
    doc.path("components").path("schemas").fieldNames().forEachRemaining(defined::add);
    assertThat(defined)
        .contains(
            "Memory",
            "SearchHit",
            "Error",
            "Event",
            "Page",
            "Entity",
            "HistoryRow",
            "Message",
            "Filters");
    Matcher m = REF.matcher(served.body());
    Set<String> referenced = new TreeSet<>();
    while (m.find()) {
      referenced.add(m.group(1));
    }
    assertThat(defined).containsAll(referenced);
    assertThat(referenced)
        .contains(
            "Memory", "SearchHit", "Error", "Event", "Entity", "HistoryRow", "Message", "Filters");
  }

  @Test
  void queryParametersTheRoutesReadAreDocumented() {
    JsonNode doc = f.call("GET", "/openapi.json", null, null).json();
    String[][] expected = {
      {"/v3/memories/", "post", "page", "page_size"},
      {"/v1/memories/", "get", "user_id", "page_size"},
      {"/v1/memories/", "delete", "user_id", "run_id"},
      {"/v1/entities/", "get", "page", "page_size"},
      {"/memories", "get", "user_id", "top_k"},
      {"/v1/graph/around/", "get", "entity", "hops"},
      {"/v1/graph/relations/", "get", "as_of", "include_invalidated"}
    };
    for (String[] e : expected) {
      Set<String> names = new HashSet<>();
      doc.path("paths")
          .path(e[0])
          .path(e[1])
          .path("parameters")
          .forEach(p -> names.add(p.path("name").asText()));
      assertThat(names).as(e[0] + " " + e[1]).contains(e[2], e[3]);
    }
  }

  @Test
  void theDocsPageListsEveryRoute() {
    var page = f.call("GET", "/docs", null, null);
    assertThat(page.status()).isEqualTo(200);
    assertThat(page.raw().headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    for (RouteTable.Route r : f.server.routes()) {
      String row =
          "<td>"
              + r.method().name()
              + "</td><td><code>"
              + r.path()
              + "</code></td><td>"
              + r.access().name().toLowerCase(Locale.ROOT)
              + "</td>";
      assertThat(page.body()).as(OpenApiDocument.key(r)).contains(row);
    }
  }
}

package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.server.auth.KeyRole;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operations routes (healthz, readyz, metrics, request ids) and the error contract every route
 * shares: a JSON body {@code {"error", "detail", "request_id"}} with 400 naming the field, 401,
 * 403, 404, 405, 413 above the body limit, 415 for a body that is not JSON, and 429 over the
 * per-key rate limit (on a clock the test moves).
 */
class OpsAndErrorsContractTest {
  static final Instant NOW = Instant.parse("2026-06-01T10:00:10Z");

  @TempDir Path dir;
  ServerFixture f;
  final MutableClock clock = new MutableClock(NOW);

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  private ServerFixture start(ServerSettings.Builder settings) {
    f = new ServerFixture(dir, settings.port(0).build(), clock, b -> b);
    return f;
  }

  private static void assertError(ServerFixture.Response r, int status, String detail) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/json");
    JsonNode body = r.json();
    assertThat(body.path("error").asText()).isNotBlank();
    assertThat(body.path("detail").asText()).isEqualTo(detail);
    assertThat(body.path("request_id").asText())
        .isEqualTo(r.raw().headers().firstValue("X-Request-Id").orElseThrow());
  }

  @Test
  void healthReadinessAndMetrics() {
    start(ServerSettings.builder());
    String admin = f.key("acme", KeyRole.ADMIN).secret();
    String member = f.key("acme", KeyRole.MEMBER).secret();
    var health = f.call("GET", "/healthz", null, null);
    assertThat(health.status()).isEqualTo(200);
    assertThat(health.json().path("status").asText()).isEqualTo("ok");
    JsonNode ready = f.call("GET", "/readyz", null, null).json();
    assertThat(ready.path("status").asText()).isEqualTo("ready");
    assertThat(ready.path("storage").asText()).isEqualTo("ok");
    assertThat(ready.path("accepting").asBoolean()).isTrue();
    assertThat(ready.path("events_queued").isInt()).isTrue();
    assertThat(ready.path("index").asText()).isEqualTo("caught up");
    assertThat(ready.path("model").asText()).startsWith("ok");

    f.call(
        "POST",
        "/v3/memories/search/",
        member,
        "{\"query\": \"q\", \"filters\": {\"user_id\": \"a\"}}");
    assertError(f.call("GET", "/metrics", member, null), 403, "role");
    assertError(f.call("GET", "/metrics", null, null), 401, "Authorization");
    var metrics = f.call("GET", "/metrics", admin, null);
    assertThat(metrics.status()).isEqualTo(200);
    assertThat(metrics.raw().headers().firstValue("Content-Type").orElse(""))
        .startsWith("text/plain");
    assertThat(metrics.body())
        .contains("engram_http_requests_seconds_count{")
        .contains("route=\"/v3/memories/search/\"")
        .contains("engram_memory_search_seconds_count")
        .contains("engram_events_queued");
  }

  @Test
  void everyResponseCarriesARequestIdAndAGoodOneIsEchoed() {
    start(ServerSettings.builder());
    var plain = f.call("GET", "/healthz", null, null);
    assertThat(plain.raw().headers().firstValue("X-Request-Id")).isPresent();
    var echoed = f.raw("GET", "/healthz", null, "X-Request-Id", "trace-42");
    assertThat(echoed.raw().headers().firstValue("X-Request-Id")).contains("trace-42");
    var replaced = f.raw("GET", "/healthz", null, "X-Request-Id", "bad id with spaces");
    assertThat(replaced.raw().headers().firstValue("X-Request-Id").orElseThrow())
        .isNotEqualTo("bad id with spaces");
  }

  @Test
  void errorBodiesAndStatuses() {
    start(ServerSettings.builder().maxBodyBytes(4096));
    String member = f.key("acme", KeyRole.MEMBER).secret();
    assertError(f.call("GET", "/v1/nothing-here/", member, null), 404, "path");
    assertError(f.call("GET", "/v1/memories/missing-id/", member, null), 404, "memory_id");
    assertError(f.call("PATCH", "/v1/memories/x/", member, "{}"), 405, "method");
    assertError(f.call("DELETE", "/v1/ping/", member, null), 405, "method");
    assertError(f.call("GET", "/v1/memories/%C3%28/", member, null), 400, "request");
    assertError(f.call("GET", "/v1/memories/?user_id=a%E9", member, null), 400, "query");
    assertError(f.call("GET", "/v1/ping/", null, null), 401, "Authorization");
    assertError(f.call("GET", "/v1/ping/", "not-a-key", null), 401, "Authorization");
    assertError(
        f.call("POST", "/v3/memories/add/", member, "{\"messages\": 5, \"user_id\": \"a\"}"),
        400,
        "messages");
    assertError(
        f.call(
            "POST",
            "/v3/memories/add/",
            member,
            "{\"messages\": \"x\", \"user_id\": \"a\"," + " \"infer\": \"yes\"}"),
        400,
        "infer");
    assertError(
        f.call(
            "POST",
            "/v3/memories/add/",
            member,
            "{\"messages\": \"x\", \"user_id\": \"a\"," + " \"metadata\": [1]}"),
        400,
        "metadata");

    byte[] big = new byte[5000];
    Arrays.fill(big, (byte) ' ');
    big[0] = '{';
    big[big.length - 1] = '}';
    assertError(
        f.raw(
            "POST",
            "/v3/memories/add/",
            big,
            "Authorization",
            "Token " + member,
            "Content-Type",
            "application/json"),
        413,
        "body");
    var chunked =
        f.send(
            HttpRequest.newBuilder(URI.create(f.base() + "/v3/memories/search/"))
                .header("Authorization", "Token " + member)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big)))
                .build());
    assertError(chunked, 413, "body");

    byte[] json = "{\"messages\": \"x\", \"user_id\": \"a\"}".getBytes(StandardCharsets.UTF_8);
    assertError(
        f.raw(
            "POST",
            "/v3/memories/add/",
            json,
            "Authorization",
            "Token " + member,
            "Content-Type",
            "text/plain"),
        415,
        "Content-Type");
    assertError(
        f.raw("POST", "/v3/memories/add/", json, "Authorization", "Token " + member),
        415,
        "Content-Type");
    assertError(
        f.raw(
            "POST",
            "/memories",
            json,
            "X-API-Key",
            member,
            "Content-Type",
            "application/x-www-form-urlencoded"),
        415,
        "Content-Type");
    for (String type :
        new String[] {
          "application/jsonx",
          "application/json; charset=latin1",
          "text/json",
          "application/json-seq"
        }) {
      assertError(
          f.raw(
              "POST",
              "/v3/memories/search/",
              json,
              "Authorization",
              "Token " + member,
              "Content-Type",
              type),
          415,
          "Content-Type");
    }
    for (String type :
        new String[] {
          "Application/JSON",
          "application/json;charset=UTF-8",
          "application/vnd.api+json",
          "application/json; charset=\"utf-8\""
        }) {
      var ok =
          f.raw(
              "POST",
              "/v3/memories/search/",
              "{\"query\": \"q\", \"filters\": {\"user_id\": \"a\"}}"
                  .getBytes(StandardCharsets.UTF_8),
              "Authorization",
              "Token " + member,
              "Content-Type",
              type);
      assertThat(ok.status()).as(type).isEqualTo(200);
    }
    var charset =
        f.raw(
            "POST",
            "/v1/memories/",
            "{\"messages\": \"x\", \"user_id\": \"a\", \"infer\": false}"
                .getBytes(StandardCharsets.UTF_8),
            "Authorization",
            "Token " + member,
            "Content-Type",
            "application/json; charset=utf-8");
    assertThat(charset.status()).isEqualTo(200);
  }

  /**
   * Sends raw bytes on a fresh socket and reads the answer until the server closes the connection.
   */
  private String rawExchange(String request) throws java.io.IOException {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", f.server.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
      s.getOutputStream().flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void requestsJettyRefusesBeforeAnyRouteGetTheJsonErrorBodyAndConnectionClose() throws Exception {
    start(ServerSettings.builder());
    String[][] cases = {
      {"GET /v1/memories/?user_id=" + "x".repeat(20_000) + " HTTP/1.1\r\nHost: a\r\n\r\n", "414"},
      {"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: " + "y".repeat(20_000) + "\r\n\r\n", "431"},
      {"GARBAGE\r\n\r\n", "400"}
    };
    for (String[] c : cases) {
      String answer = rawExchange(c[0]);
      assertThat(answer).as(c[1]).startsWith("HTTP/1.1 " + c[1]);
      assertThat(answer.toLowerCase(java.util.Locale.ROOT))
          .as(c[1])
          .contains("connection: close")
          .contains("content-type: application/json");
      JsonNode body =
          com.fasterxml.jackson.databind.json.JsonMapper.builder()
              .build()
              .readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
      assertThat(body.path("error").asText()).as(c[1]).isNotBlank();
      assertThat(body.path("detail").asText()).as(c[1]).isEqualTo("request");
    }
    var after = f.call("GET", "/healthz", null, null);
    assertThat(after.status()).isEqualTo(200);
  }

  @Test
  void aKeyOverItsRateLimitGets429UntilTheNextMinute() {
    start(ServerSettings.builder().rateLimitPerMinute(3));
    String a = f.key("acme", KeyRole.MEMBER).secret();
    String b = f.key("acme", KeyRole.MEMBER).secret();
    for (int i = 0; i < 3; i++) {
      assertThat(f.call("GET", "/v1/ping/", a, null).status()).isEqualTo(200);
    }
    var limited = f.call("GET", "/v1/ping/", a, null);
    assertError(limited, 429, "rate_limit");
    assertThat(limited.raw().headers().firstValue("Retry-After")).contains("50");
    assertThat(limited.raw().headers().firstValue("X-RateLimit-Limit")).contains("3");
    assertThat(f.call("GET", "/v1/ping/", b, null).status()).isEqualTo(200);
    assertThat(f.call("GET", "/healthz", null, null).status()).isEqualTo(200);
    clock.advance(Duration.ofSeconds(50));
    assertThat(f.call("GET", "/v1/ping/", a, null).status()).isEqualTo(200);
  }

  @Test
  void aMemberKeyGets403OnEveryAdminRoute() {
    start(ServerSettings.builder());
    String member = f.key("acme", KeyRole.MEMBER).secret();
    f.memory
        .forTenant("acme")
        .add(
            dev.engram.AddRequest.builder(dev.engram.Scope.user("alice"))
                .user("kept")
                .infer(false)
                .build());
    String before = StoreDump.of(f.memory, java.util.List.of("acme"));
    int admins = 0;
    for (var r : f.server.routes()) {
      if (r.access() != dev.engram.server.http.Access.ADMIN) {
        continue;
      }
      admins++;
      String path =
          r.path().replace("{entity_type}", "user").replace("{entity_id}", "alice")
              + (r.path().equals("/v1/memories/") || r.path().equals("/memories")
                  ? "?user_id=alice"
                  : "");
      var resp = f.call(r.method().name(), path, member, "{\"filters\": {\"user_id\": \"alice\"}}");
      assertError(resp, 403, "role");
    }
    assertThat(admins).isGreaterThanOrEqualTo(8);
    assertThat(StoreDump.of(f.memory, java.util.List.of("acme"))).isEqualTo(before);
  }
}

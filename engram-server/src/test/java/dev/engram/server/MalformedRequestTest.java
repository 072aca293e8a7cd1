package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.AddRequest;
import dev.engram.GraphRelation;
import dev.engram.Memory;
import dev.engram.MemoryUpdate;
import dev.engram.Scope;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.TimeView;
import dev.engram.json.MemoryJson;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.http.Access;
import dev.engram.server.http.RouteTable;
import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * At least 1,200 generated malformed requests over every route (seeded; the seed is printed, and
 * {@code -Dengram.fuzz.seed=N} replays one): broken and truncated JSON, wrong types, bodies over
 * the limit, deep nesting, invalid UTF-8, unknown fields, odd ids (unicode, very long, path
 * traversal, empty, NUL), SQL and Lucene syntax in filter values and keys, bad methods and content
 * types. No answer may be a 5xx, the server serves afterwards, and a dump of the store (memories,
 * history, entities and graph relations of both tenants, read through the Memory API) is
 * byte-identical before and after. Requests to routes that write are always defective (or aim at
 * ids that do not exist), so any write that got through would show in the dump.
 */
class MalformedRequestTest {
  static final int REQUESTS = 1200;
  static final long MAX_BODY = 16 * 1024;

  static final String[] INJECTIONS = {
    "' OR '1'='1",
    "alice' --",
    "\"; DROP TABLE memories; --",
    "1; DELETE FROM memories",
    "*:*",
    "user_id:*",
    "alice OR user_id:bob",
    "(+user_id:bob)",
    "\\",
    "%",
    "_",
    "' UNION SELECT * FROM history --",
    "$where",
    "{\"$ne\": null}",
    "../../etc/passwd",
    "a\u0000b",
    "\u202e\u0000",
    "NULL",
    "' OR 1=1) --",
    "text:[* TO *]",
    "memory:\"",
    "~",
    "^2",
    "\u0000",
    "user_id\") OR (1=1",
    "\n\r\t",
    "${jndi:ldap://x}"
  };
  static final String[] ODD_IDS = {
    "%C3%A9l%C3%A8ve-%F0%9F%98%80",
    "..%2F..%2Fetc%2Fpasswd",
    "..",
    "%2e%2e",
    "%00",
    "%C3%28",
    "%FF%FE",
    "x'%20OR%20'1'='1",
    "*",
    "%2A%3A%2A",
    "null",
    "undefined",
    "-1",
    "0",
    "%20",
    "a%2Fb",
    "%5C..%5C",
    "00000000-0000-0000-0000-000000000000",
    "%E2%80%AE",
    "%25"
  };
  static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"};
  static final String[] CONTENT_TYPES = {
    "text/plain",
    "application/xml",
    "multipart/form-data; boundary=x",
    "application/x-www-form-urlencoded",
    "",
    "json",
    "application/jsonx",
    "text/json",
    "*/*",
    "application/json; charset=latin1"
  };

  @TempDir Path dir;
  ServerFixture f;
  String acme;
  String globex;
  Memory acmeMemory;
  List<String> knownIds = new ArrayList<>();
  Random random;
  long seed;

  @BeforeEach
  void start() {
    f =
        new ServerFixture(
            dir,
            ServerSettings.builder().port(0).maxBodyBytes(MAX_BODY).build(),
            Clock.systemUTC(),
            b -> b.graph(OfflineGraphExtractor.create()));
    acme = f.key("acme", KeyRole.ADMIN).secret();
    globex = f.key("globex", KeyRole.MEMBER).secret();
    acmeMemory = f.memory.forTenant("acme");
    knownIds.add(
        seed(
            acmeMemory,
            Scope.user("alice"),
            "Alice went to the chess club in Boston",
            Map.of("k", "v")));
    knownIds.add(
        seed(
            acmeMemory,
            Scope.of("alice", "helper", null),
            "Alice likes green tea",
            Map.of("n", 3)));
    String updated = seed(acmeMemory, Scope.user("bob"), "Bob lives in Oslo", Map.of());
    acmeMemory.update(updated, MemoryUpdate.text("Bob lives in Bergen"));
    knownIds.add(updated);
    String deleted = seed(acmeMemory, Scope.run("run-1"), "a note of run 1", Map.of());
    acmeMemory.delete(deleted);
    knownIds.add(deleted);
    knownIds.add(
        seed(
            f.memory.forTenant("globex"),
            Scope.user("alice"),
            "Globex Alice flies to Rome",
            Map.of()));
    seed = Long.getLong("engram.fuzz.seed", System.nanoTime());
    random = new Random(seed);
    System.out.println(
        "MalformedRequestTest seed=" + seed + " (replay with -Dengram.fuzz.seed=" + seed + ")");
  }

  @AfterEach
  void stop() {
    f.close();
  }

  private static String seed(Memory m, Scope scope, String text, Map<String, Object> metadata) {
    return m.add(AddRequest.builder(scope).user(text).infer(false).metadata(metadata).build())
        .events()
        .get(0)
        .id();
  }

  private String dump() {
    StringBuilder b =
        new StringBuilder(StoreDump.of(f.memory, List.of("acme", "globex"), knownIds));
    for (String tenant : List.of("acme", "globex")) {
      Memory m = f.memory.forTenant(tenant);
      for (String user : List.of("alice", "bob")) {
        for (String entity : List.of("Alice", "Boston", "Bob", "Rome")) {
          List<GraphRelation> around = m.graphAround(Scope.user(user), entity, 3, TimeView.ALL);
          around.forEach(
              r ->
                  b.append('\n')
                      .append(tenant)
                      .append(' ')
                      .append(user)
                      .append(' ')
                      .append(MemoryJson.write(MemoryJson.relation(r))));
        }
      }
    }
    return b.toString();
  }

  /** One generated request. */
  record Req(String kind, String method, String path, byte[] body, List<String> headers) {
    String describe() {
      String text =
          body == null
              ? ""
              : new String(body, 0, Math.min(body.length, 160), StandardCharsets.UTF_8);
      return kind
          + " "
          + method
          + " "
          + (path.length() > 160 ? path.substring(0, 160) + "..." : path)
          + " "
          + headers
          + " "
          + text;
    }
  }

  @Test
  void malformedRequestsNeverGet5xxAndChangeNothing() {
    String before = dump();
    List<RouteTable.Route> routes = f.server.routes();
    Map<String, Integer> statuses = new TreeMap<>();
    Map<String, Integer> kinds = new TreeMap<>();
    List<String> failures = new ArrayList<>();
    Req last = new Req("none", "", "", null, List.of());
    for (int i = 0; i < REQUESTS; i++) {
      RouteTable.Route route = routes.get(random.nextInt(routes.size()));
      Req req = generate(route);
      kinds.merge(req.kind(), 1, Integer::sum);
      Req previous = last;
      last = req;
      int status;
      try {
        status =
            f.raw(req.method(), req.path(), req.body(), req.headers().toArray(String[]::new))
                .status();
      } catch (UncheckedIOException | IllegalArgumentException e) {
        // The server answers 413 to a body over the limit without reading it, and may close the
        // connection while
        // the client still sends it, so that the client never sees the answer; any other failure is
        // a bug.
        if (req.body() != null && req.body().length > MAX_BODY) {
          statuses.merge("closed", 1, Integer::sum);
          continue;
        }
        failures.add(
            "#"
                + i
                + " no answer ("
                + e
                + "): "
                + req.describe()
                + " (after "
                + previous.describe()
                + ")");
        continue;
      }
      statuses.merge(Integer.toString(status), 1, Integer::sum);
      if (status >= 500) {
        failures.add("#" + i + " " + status + ": " + req.describe());
      }
      if (writesFromBody(route)
          && status >= 200
          && status < 300
          && !req.kind().equals("bad method")) {
        failures.add(
            "#" + i + " a defective write was accepted (" + status + "): " + req.describe());
      }
    }
    System.out.println(
        "MalformedRequestTest seed=" + seed + " kinds=" + kinds + " statuses=" + statuses);
    assertThat(failures).as("seed " + seed).isEmpty();
    assertThat(kinds.values().stream().mapToInt(Integer::intValue).sum())
        .isGreaterThanOrEqualTo(1000);

    assertThat(dump()).as("seed " + seed).isEqualTo(before);
    var ready = f.call("GET", "/readyz", null, null);
    assertThat(ready.status()).isEqualTo(200);
    JsonNode hits =
        f.call(
                "POST",
                "/v3/memories/search/",
                acme,
                "{\"query\": \"chess club\", \"filters\": {\"user_id\": \"alice\"}}")
            .json();
    List<String> texts = new ArrayList<>();
    hits.path("results").forEach(h -> texts.add(h.path("memory").asText()));
    assertThat(texts).contains("Alice went to the chess club in Boston");
    var add =
        f.call(
            "POST",
            "/v1/memories/",
            acme,
            "{\"messages\": \"still serving\", \"user_id\": \"zed\"," + " \"infer\": false}");
    assertThat(add.status()).isEqualTo(200);
  }

  // ---- generation ----

  private static boolean writes(RouteTable.Route r) {
    String m = r.method().name();
    String p = r.path();
    return m.equals("PUT")
        || m.equals("DELETE")
        || p.equals("/v3/memories/add/")
        || p.equals("/v1/memories/") && m.equals("POST")
        || p.equals("/memories") && m.equals("POST")
        || p.equals("/reset");
  }

  /**
   * The write routes that take what to write from the body (the others name it in the path or
   * query).
   */
  private static boolean writesFromBody(RouteTable.Route r) {
    return writes(r)
        && (r.method().name().equals("PUT")
            || r.method().name().equals("POST")
            || r.path().equals("/v1/batch/"))
        && !r.path().equals("/reset");
  }

  private <T> T pick(T[] options) {
    return options[random.nextInt(options.length)];
  }

  private Req generate(RouteTable.Route route) {
    if (route.path().equals("/reset")) {
      return badMethod(
          route); // any POST /reset is a valid reset: only other methods are malformed there
    }
    List<Supplier<Req>> kinds = new ArrayList<>();
    kinds.add(() -> bodyReq("broken json", route, brokenJson()));
    kinds.add(() -> bodyReq("truncated json", route, truncated(validBody(route))));
    kinds.add(() -> bodyReq("wrong types", route, wrongTypes(route)));
    kinds.add(() -> bodyReq("huge body", route, huge()));
    kinds.add(() -> bodyReq("deep nesting", route, deep(route)));
    kinds.add(() -> bodyReq("invalid utf-8", route, invalidUtf8(route)));
    kinds.add(() -> bodyReq("unknown fields", route, unknownFields(route)));
    kinds.add(
        () ->
            new Req(
                "odd id",
                route.method().name(),
                path(route, true),
                defectiveOrValid(route),
                auth(route, true)));
    kinds.add(() -> bodyReq("filter injection", route, injection(route)));
    kinds.add(() -> badMethod(route));
    kinds.add(() -> badContentType(route));
    kinds.add(
        () ->
            new Req(
                "odd query",
                route.method().name(),
                path(route, false) + oddQuery(),
                defectiveOrValid(route),
                auth(route, true)));
    return kinds.get(random.nextInt(kinds.size())).get();
  }

  private Req bodyReq(String kind, RouteTable.Route route, byte[] body) {
    return new Req(kind, route.method().name(), path(route, false), body, auth(route, true));
  }

  private List<String> auth(RouteTable.Route route, boolean json) {
    List<String> h = new ArrayList<>();
    if (route.access() != Access.PUBLIC) {
      String key = random.nextInt(4) == 0 ? globex : acme;
      if (route.path().startsWith("/v")) {
        h.addAll(List.of("Authorization", "Token " + key));
      } else {
        h.addAll(List.of("X-API-Key", key));
      }
    }
    if (json) {
      h.addAll(List.of("Content-Type", "application/json"));
    }
    return h;
  }

  /** The route's path with its parameters filled: odd values, or ids that exist only on reads. */
  private String path(RouteTable.Route route, boolean odd) {
    return path(route, odd, route.method().name().equals("GET"));
  }

  /** {@code read}: existing ids may be used (only when the request cannot change them). */
  private String path(RouteTable.Route route, boolean odd, boolean read) {
    String p = route.path();
    String id =
        odd
            ? oddId()
            : read && random.nextBoolean()
                ? knownIds.get(random.nextInt(knownIds.size()))
                : "no-such-" + random.nextInt(1000);
    p =
        p.replace(
            "{file}",
            odd ? oddId() : pick(new String[] {"app.js", "app.css", "index.html", "nope.js"}));
    p = p.replace("{memory_id}", id).replace("{event_id}", odd ? oddId() : "no-such-event");
    p =
        p.replace(
            "{entity_type}",
            odd && random.nextBoolean()
                ? oddId()
                : pick(new String[] {"user", "agent", "run", "app", "USER"}));
    p = p.replace("{entity_id}", odd ? oddId() : "nobody-" + random.nextInt(1000));
    if (p.equals("/v1/memories/") && !route.method().name().equals("POST")
        || p.equals("/memories") && !route.method().name().equals("POST")
        || p.startsWith("/v1/graph/")) {
      String scope = odd ? oddId() : URLEncoder.encode(pick(INJECTIONS), StandardCharsets.UTF_8);
      p += "?user_id=" + scope + "&entity=" + scope;
    }
    return p;
  }

  private String oddId() {
    return switch (random.nextInt(5)) {
      case 0 -> "x".repeat(300 + random.nextInt(20_000));
      case 1 -> "";
      case 2 -> URLEncoder.encode(pick(INJECTIONS), StandardCharsets.UTF_8);
      default -> pick(ODD_IDS);
    };
  }

  private String oddQuery() {
    String[] q = {
      "page=-1",
      "page=0",
      "page=2147483647",
      "page=99999999999",
      "page_size=0",
      "page_size=2147483647",
      "page_size=abc",
      "page=1.5",
      "top_k=-5",
      "top_k=99999",
      "hops=1000",
      "as_of=not-a-time",
      "as_of=99999-01-01",
      "include_invalidated=maybe",
      "show_expired=2",
      "limit=-1",
      "app_id=x",
      "user_id=&agent_id=&run_id=",
      "user_id=" + "u".repeat(5000),
      "delete_linked=%00",
      "page=%FF",
      "entity=" + "e".repeat(3000),
      "user_id=a&user_id=b",
      "hops=-1",
      "page_size=1&page=2147483647"
    };
    String sep = "?";
    StringBuilder b = new StringBuilder();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      b.append(sep).append(pick(q));
      sep = "&";
    }
    return b.toString();
  }

  private Req badMethod(RouteTable.Route route) {
    String method;
    do {
      method = pick(METHODS);
    } while (method.equals(route.method().name())
        || route.path().equals("/reset") && method.equals("POST"));
    byte[] body = random.nextBoolean() ? null : bytes("{\"x\": 1}");
    // A route's path under another method may be a real route (GET and DELETE /v1/memories/{id}/):
    // no real ids.
    return new Req(
        "bad method", method, path(route, false, false), body, auth(route, body != null));
  }

  private Req badContentType(RouteTable.Route route) {
    List<String> h = auth(route, false);
    String type = pick(CONTENT_TYPES);
    if (!type.isEmpty()) {
      h.addAll(List.of("Content-Type", type));
    }
    byte[] body =
        type.contains("latin1")
            ? "{\"query\": \"caf\u00e9\", \"messages\": \"\u00e9t\u00e9\"}"
                .getBytes(StandardCharsets.ISO_8859_1)
            : validBody(route);
    return new Req("bad content type", route.method().name(), path(route, false), body, h);
  }

  private byte[] defectiveOrValid(RouteTable.Route route) {
    return writes(route) ? wrongTypes(route) : validBody(route);
  }

  /**
   * A body the route would accept (only ever sent to routes that do not write, or with a defect).
   */
  private String validText(RouteTable.Route route) {
    String p = route.path();
    if (p.contains("search")) {
      return "{\"query\": \"chess\", \"filters\": {\"user_id\": \"alice\"}, \"top_k\": 5}";
    }
    if (p.equals("/v3/memories/add/") || p.equals("/v1/memories/") || p.equals("/memories")) {
      return "{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"user_id\": \"fuzz\", \"infer\": false}";
    }
    if (p.contains("batch")) {
      return "{\"memories\": [{\"memory_id\": \"no-such-id\", \"text\": \"t\"}]}";
    }
    if (p.contains("exports/get")) {
      return "{\"filters\": {\"user_id\": \"alice\"}}";
    }
    if (p.contains("{memory_id}") && route.method().name().equals("PUT")) {
      return "{\"text\": \"changed\"}";
    }
    return "{\"filters\": {\"user_id\": \"alice\"}}";
  }

  private byte[] validBody(RouteTable.Route route) {
    return bytes(validText(route));
  }

  private byte[] brokenJson() {
    String[] broken = {
      "{",
      "}",
      "[",
      "{\"a\":}",
      "{\"a\" 1}",
      "{'a': 1}",
      "{\"a\": 1,}",
      "{\"a\": 01}",
      "{\"a\": NaN}",
      "{\"a\": Infinity}",
      "nul",
      "tru",
      "{\"a\": \"unterminated}",
      "{\"a\": 1}{\"b\": 2}",
      "{\"a\": 1} trailing",
      "\"\\u12\"",
      "{\"a\": \"\\x41\"}",
      "{\"a\": 1, \"a\": 2}",
      "{,}",
      "[1,,2]",
      "{\"a\"}",
      "\u0000",
      "   ",
      "{\"messages\": \"x\", \"user_id\": \"a\", \"messages\": \"y\"}",
      "{\"a\": 1e99999}",
      "{\"a\": " + "9".repeat(500) + "}",
      "/* comment */ {}",
      "{\"a\": [1, 2}",
      "{\"a\": {\"b\": [}}"
    };
    return bytes(pick(broken));
  }

  private byte[] truncated(byte[] valid) {
    return java.util.Arrays.copyOf(valid, Math.max(1, random.nextInt(valid.length)));
  }

  private byte[] huge() {
    int n = (int) MAX_BODY + 1 + random.nextInt((int) MAX_BODY * 4);
    StringBuilder b = new StringBuilder("{\"messages\": \"");
    while (b.length() < n) {
      b.append("lorem ipsum ");
    }
    return bytes(
        b.append("\", \"user_id\": \"fuzz\", \"query\": \"q\", \"filters\": {\"user_id\": \"a\"}}")
            .toString());
  }

  private byte[] deep(RouteTable.Route route) {
    int depth = 60 + random.nextInt(3000);
    String open = random.nextBoolean() ? "[" : "{\"a\":";
    String close = open.equals("[") ? "]" : "}";
    String nested = open.repeat(depth) + "1" + close.repeat(depth);
    return bytes(
        switch (random.nextInt(3)) {
          case 0 -> nested;
          case 1 ->
              "{\"query\": \"q\", \"messages\": \"m\", \"filters\": {\"user_id\": \"alice\", \"AND\": ["
                  + "{\"AND\": [".repeat(depth / 2)
                  + "{\"k\": 1}"
                  + "]}".repeat(depth / 2)
                  + "]}}";
          default ->
              "{\"messages\": \"m\", \"user_id\": \"fuzz\", \"infer\": false, \"metadata\": {\"x\": "
                  + nested
                  + "}}";
        });
  }

  private byte[] invalidUtf8(RouteTable.Route route) {
    byte[] valid =
        writes(route)
            ? bytes("{\"messages\": \"caf\u00e9 ", "\", \"user_id\": \"fuzz\", \"infer\": false}")
            : validBody(route);
    byte[][] bad = {
      {(byte) 0xC3, (byte) 0x28},
      {(byte) 0xFF},
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
      {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
      {(byte) 0xC0, (byte) 0xAF},
      {(byte) 0xE2, (byte) 0x82}
    };
    byte[] inject = bad[random.nextInt(bad.length)];
    int at = writes(route) ? indexOf(valid, (byte) ' ', 14) : 1 + random.nextInt(valid.length - 1);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(valid, 0, at);
    out.writeBytes(inject);
    out.write(valid, at, valid.length - at);
    return out.toByteArray();
  }

  private static byte[] bytes(String... parts) {
    return String.join("", parts).getBytes(StandardCharsets.UTF_8);
  }

  private static int indexOf(byte[] a, byte b, int from) {
    for (int i = from; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return a.length / 2;
  }

  private String wrongValue() {
    String[] values = {
      "123",
      "-1",
      "1.5",
      "true",
      "false",
      "null",
      "[]",
      "[1, 2]",
      "{}",
      "{\"a\": 1}",
      "\"\"",
      "\"   \"",
      "\"x\"",
      "1e308",
      "-0",
      "[[[]]]",
      "[{\"role\": 5}]",
      "\"" + "w".repeat(20_000) + "\""
    };
    return pick(values);
  }

  /** The route's body with one known field given a wrong value; on write routes always refused. */
  private byte[] wrongTypes(RouteTable.Route route) {
    String p = route.path();
    if (p.equals("/v3/memories/add/")
        || p.equals("/v1/memories/") && route.method().name().equals("POST")
        || p.equals("/memories") && route.method().name().equals("POST")) {
      String[] defects = {
        "{\"messages\": "
            + pick(
                new String[] {
                  "123",
                  "true",
                  "{}",
                  "[1]",
                  "[{\"role\": \"robot\", \"content\":" + " \"x\"}]",
                  "[{\"role\": \"user\", \"content\": 5}]",
                  "\"   \"",
                  "null",
                  "[{\"content\": {}}]"
                })
            + ", \"user_id\": \"fuzz\", \"infer\": false}",
        "{\"messages\": \"x\", \"user_id\": "
            + pick(new String[] {"123", "[]", "{}", "true", "[\"a\"]"})
            + "}",
        "{\"messages\": \"x\"}",
        "{\"messages\": \"x\", \"user_id\": \"fuzz\", \"app_id\": \"a\", \"infer\": false}",
        "{\"messages\": \"x\", \"user_id\": \"fuzz\", \"metadata\": "
            + pick(new String[] {"\"m\"", "[1]", "7"})
            + "}",
        "{\"messages\": \"x\", \"user_id\": \"fuzz\", \"infer\": "
            + pick(new String[] {"\"yes\"", "1", "[]"})
            + "}",
        "{\"messages\": \"x\", \"user_id\": \"fuzz\", \"infer\": false, \"timestamp\": "
            + pick(new String[] {"\"yesterday\"", "-5", "1e20", "{}", "true", "99999999999999"})
            + "}",
        "{\"messages\": \"x\", \"user_id\": \"fuzz\", \"infer\": false, \"expiration_date\": "
            + pick(new String[] {"\"tomorrow\"", "5", "\"2024-13-45\"", "[]"})
            + "}",
        "[{\"messages\": \"x\", \"user_id\": \"fuzz\"}]",
        "\"just a string\"",
        "{\"messages\": \"x\", \"user_id\": \"" + "u".repeat(300) + "\", \"infer\": false}",
      };
      return bytes(pick(defects));
    }
    if (p.contains("batch")) {
      return bytes(
          pick(
              new String[] {
                "{\"memories\": " + wrongValue() + "}",
                "{\"memories\": [" + wrongValue() + "]}",
                "{\"memories\": [{\"memory_id\": " + wrongValue() + "}]}",
                "{}"
              }));
    }
    if (route.method().name().equals("PUT")) {
      return bytes(
          pick(
              new String[] {
                "{\"text\": " + wrongValue() + "}",
                "{\"metadata\": " + wrongValue() + "}",
                "{\"expiration_date\": "
                    + pick(new String[] {"5", "\"soon\"", "[]", "\"2024-02-30\""})
                    + "}",
                "{\"text\": \"t\", \"timestamp\": 5}",
                "{}",
                "[]",
                "{\"data\": " + wrongValue() + "}"
              }));
    }
    String field =
        pick(
            new String[] {
              "query",
              "filters",
              "top_k",
              "threshold",
              "explain",
              "show_expired",
              "as_of",
              "include_invalidated",
              "page",
              "page_size",
              "memory_export_id",
              "limit"
            });
    String base = validText(route);
    return bytes(
        base.substring(0, base.length() - 1) + ", \"" + field + "\": " + wrongValue() + "}");
  }

  private byte[] unknownFields(RouteTable.Route route) {
    String base =
        writes(route) ? new String(wrongTypes(route), StandardCharsets.UTF_8) : validText(route);
    if (!base.startsWith("{") || base.equals("{}")) {
      return bytes(base);
    }
    StringBuilder extra = new StringBuilder();
    for (int i = 0; i < 1 + random.nextInt(5); i++) {
      extra
          .append(", \"")
          .append(
              pick(
                  new String[] {
                    "org_id",
                    "project_id",
                    "tenant",
                    "__proto__",
                    "constructor",
                    "$set",
                    "user_id_",
                    "\u00fcn\u00efc\u00f8d\u00e9",
                    "",
                    " ",
                    "tenant_id",
                    "api_key"
                  }))
          .append(i)
          .append("\": ")
          .append(wrongValue());
    }
    return bytes(base.substring(0, base.length() - 1) + extra + "}");
  }

  /** SQL and Lucene syntax in filter values and keys, query text and ids. */
  private byte[] injection(RouteTable.Route route) {
    String inj = MemoryJson.mapper().getNodeFactory().textNode(pick(INJECTIONS)).toString();
    if (writes(route)) {
      if (route.path().contains("batch")) {
        return bytes("{\"memories\": [{\"memory_id\": " + inj + ", \"text\": " + inj + "}]}");
      }
      if (route.method().name().equals("PUT")) {
        return bytes("{\"text\": " + inj + ", \"timestamp\": 1}");
      }
      return bytes(
          "{\"messages\": " + inj + ", \"user_id\": " + inj + ", \"app_id\": " + inj + "}");
    }
    String key = MemoryJson.mapper().getNodeFactory().textNode(pick(INJECTIONS)).toString();
    String[] filters = {
      "{\"user_id\": " + inj + "}",
      "{\"user_id\": \"alice\", \"k\": " + inj + "}",
      "{\"user_id\": \"alice\", " + key + ": \"v\"}",
      "{\"user_id\": \"alice\", \"metadata\": {" + key + ": " + inj + "}}",
      "{\"AND\": [{\"user_id\": \"alice\"}, {\"OR\": [{"
          + key
          + ": {\"contains\": "
          + inj
          + "}}]}]}",
      "{\"user_id\": \"alice\", \"k\": {\"in\": [" + inj + ", 1, true]}}",
      "{\"user_id\": \"alice\", \"k\": {" + key + ": 1}}",
      "{\"user_id\": \"alice\", \"created_at\": {\"gte\": " + inj + "}}",
      "{\"user_id\": \"alice\", \"NOT\": [{\"k\": {\"icontains\": " + inj + "}}]}",
      "{\"user_id\": \"alice\", " + key + ": {\"gte\": " + inj + "}}",
    };
    return bytes(
        "{\"query\": "
            + inj
            + ", \"filters\": "
            + pick(filters)
            + ", \"memory_export_id\": "
            + inj
            + "}");
  }
}

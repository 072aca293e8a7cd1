package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.auth.NewApiKey;
import dev.engram.server.http.Access;
import dev.engram.server.http.RouteTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every route of {@link EngramServer#routes()} against tenant {@code acme}'s data, called with no
 * key, a bad key, a revoked key, another tenant's admin and member keys, and an acme member key on
 * the admin routes: 401, 401, 401, 404-or-nothing-of-acme, 403. Each call aims at acme's resources
 * (its memory, event, export and entity ids, its user id). Afterwards the store, read through the
 * Memory API, holds exactly what it held before for acme, and nothing of acme's appeared in any
 * answer or in the other tenant's data.
 */
class TenantMatrixTest {
  static final String MARK = "ACMESECRET";

  @TempDir Path dir;
  ServerFixture f;
  String acmeAdmin;
  String acmeMember;
  NewApiKey revoked;
  String globexAdmin;
  String globexMember;
  String memoryId;
  String otherMemoryId;
  String eventId;
  String exportId;
  List<String> acmeSecrets = new ArrayList<>();

  @BeforeEach
  void start() {
    f =
        new ServerFixture(
            dir,
            ServerSettings.builder().port(0).build(),
            Clock.systemUTC(),
            b -> b.graph(OfflineGraphExtractor.create()));
    acmeAdmin = f.key("acme", KeyRole.ADMIN).secret();
    acmeMember = f.key("acme", KeyRole.MEMBER).secret();
    revoked = f.key("acme", KeyRole.ADMIN);
    globexAdmin = f.key("globex", KeyRole.ADMIN).secret();
    globexMember = f.key("globex", KeyRole.MEMBER).secret();

    memoryId =
        f.call(
                "POST",
                "/v1/memories/",
                acmeMember,
                "{\"messages\": [{\"role\": \"user\", \"content\":"
                    + " \"Alice joined the "
                    + MARK
                    + " chess club in Boston\"}], \"user_id\": \"alice\", \"infer\": false}")
            .json()
            .path("results")
            .get(0)
            .path("id")
            .asText();
    eventId =
        f.call(
                "POST",
                "/v3/memories/add/",
                acmeMember,
                "{\"messages\": \"Alice keeps "
                    + MARK
                    + " notes in Oslo\", \"user_id\": \"alice\", \"agent_id\": \"helper\", \"infer\": false}")
            .json()
            .path("event_id")
            .asText();
    otherMemoryId = f.awaitEvent(acmeMember, eventId).path("results").get(0).path("id").asText();
    assertThat(
            f.call(
                    "PUT",
                    "/v1/memories/" + memoryId + "/",
                    acmeMember,
                    "{\"text\": \"Alice leads the " + MARK + " chess club in Boston\"}")
                .status())
        .isEqualTo(200);
    exportId =
        f.call("POST", "/v1/exports/", acmeAdmin, "{\"filters\": {\"user_id\": \"alice\"}}")
            .json()
            .path("id")
            .asText();
    assertThat(f.keys.revoke(revoked.info().id())).isTrue();
    acmeSecrets.addAll(List.of(MARK, memoryId, otherMemoryId, eventId));
    assertThat(
            f.memory
                .forTenant("acme")
                .entityRelations(
                    dev.engram.Scope.user("alice"), "Boston", dev.engram.graph.TimeView.CURRENT))
        .isNotEmpty();
  }

  @AfterEach
  void stop() {
    f.close();
  }

  /** A request aimed at acme's data on one route. */
  record Aimed(String method, String path, String body) {}

  private Aimed aim(RouteTable.Route r) {
    String p = r.path();
    String key = r.method().name() + " " + p;
    String path =
        p.replace("{file}", "app.js")
            .replace("{memory_id}", memoryId)
            .replace("{event_id}", eventId)
            .replace("{entity_type}", "user")
            .replace("{entity_id}", "alice");
    String search = "{\"query\": \"chess club Boston\", \"filters\": {\"user_id\": \"alice\"}}";
    String filters = "{\"filters\": {\"user_id\": \"alice\"}}";
    String add =
        "{\"messages\": \"hello from the caller\", \"user_id\": \"alice\", \"infer\": false}";
    return switch (key) {
      case "GET /v1/ping/",
          "GET /v1/events/",
          "GET /v1/entities/",
          "GET /entities",
          "GET /metrics",
          "GET /healthz",
          "GET /readyz",
          "GET /openapi.json",
          "GET /docs",
          "POST /reset",
          "GET /",
          "GET /console/{file}" ->
          new Aimed(r.method().name(), path, null);
      case "POST /v3/memories/add/", "POST /v1/memories/", "POST /memories" ->
          new Aimed("POST", path, add);
      case "GET /v1/event/{event_id}/",
          "GET /v1/memories/{memory_id}/",
          "DELETE /v1/memories/{memory_id}/",
          "GET /v1/memories/{memory_id}/history/",
          "DELETE /v2/entities/{entity_type}/{entity_id}/",
          "DELETE /v1/entities/{entity_type}/{entity_id}/",
          "GET /memories/{memory_id}",
          "DELETE /memories/{memory_id}",
          "GET /memories/{memory_id}/history",
          "DELETE /entities/{entity_type}/{entity_id}",
          "GET /v1/memories/{memory_id}/relations/" ->
          new Aimed(r.method().name(), path, null);
      case "POST /v3/memories/search/", "POST /v2/memories/search/", "POST /search" ->
          new Aimed("POST", path, search);
      case "POST /v1/memories/search/" ->
          new Aimed("POST", path, "{\"query\": \"chess club Boston\", \"user_id\": \"alice\"}");
      case "POST /v3/memories/", "POST /v2/memories/", "POST /v1/exports/" ->
          new Aimed("POST", path, filters);
      case "POST /v1/engram/export/" -> new Aimed("POST", path, "{\"user_id\": \"alice\"}");
      case "POST /v1/engram/import/" -> new Aimed("POST", path, "{\"records\": []}");
      case "PUT /v1/memories/{memory_id}/", "PUT /memories/{memory_id}" ->
          new Aimed("PUT", path, "{\"text\": \"overwritten by the caller\"}");
      case "DELETE /v1/memories/", "DELETE /memories", "GET /v1/memories/", "GET /memories" ->
          new Aimed(r.method().name(), path + "?user_id=alice", null);
      case "PUT /v1/batch/" ->
          new Aimed(
              "PUT",
              path,
              "{\"memories\": [{\"memory_id\": \""
                  + memoryId
                  + "\", \"text\": \"overwritten\"}, {\"memory_id\": \""
                  + otherMemoryId
                  + "\", \"text\": \"too\"}]}");
      case "DELETE /v1/batch/" ->
          new Aimed(
              "DELETE",
              path,
              "{\"memories\": [{\"memory_id\": \""
                  + memoryId
                  + "\"}, {\"memory_id\": \""
                  + otherMemoryId
                  + "\"}]}");
      case "POST /v1/exports/get/" ->
          new Aimed("POST", path, "{\"memory_export_id\": \"" + exportId + "\"}");
      case "GET /v1/graph/relations/", "GET /v1/graph/around/" ->
          new Aimed("GET", path + "?user_id=alice&entity=Boston&include_invalidated=true", null);
      case "DELETE /v1/graph/entities/" ->
          new Aimed("DELETE", path + "?user_id=alice&entity=Boston", null);
      case "POST /v1/memories/batch/" -> new Aimed("POST", path, "{\"requests\": [" + add + "]}");
      case "POST /v1/memories/purge-expired/" -> new Aimed("POST", path, null);
      default -> {
        fail("TenantMatrixTest has no request for the new route " + key + ": add one");
        throw new AssertionError();
      }
    };
  }

  private ServerFixture.Response send(RouteTable.Route r, String... auth) {
    Aimed a = aim(r);
    List<String> headers = new ArrayList<>(List.of(auth));
    if (a.body() != null) {
      headers.addAll(List.of("Content-Type", "application/json"));
    }
    return f.raw(
        a.method(),
        a.path(),
        a.body() == null ? null : a.body().getBytes(StandardCharsets.UTF_8),
        headers.toArray(String[]::new));
  }

  /** Self-hosted routes get their key as X-API-Key, the others as mem0's Token header. */
  private static String[] credential(RouteTable.Route r, String key) {
    return r.path().startsWith("/v") || r.path().equals("/metrics")
        ? new String[] {"Authorization", "Token " + key}
        : new String[] {"X-API-Key", key};
  }

  private String dumpAll() {
    return StoreDump.of(f.memory, List.of("acme", "globex"), List.of(memoryId, otherMemoryId));
  }

  private String dumpAcme() {
    return StoreDump.of(f.memory, List.of("acme"), List.of(memoryId, otherMemoryId));
  }

  @Test
  void everyRouteRefusesNoKeyBadKeyAndRevokedKeyAndChangesNothing() {
    String before = dumpAll();
    SoftAssertions soft = new SoftAssertions();
    int checked = 0;
    for (RouteTable.Route r : f.server.routes()) {
      if (r.access() == Access.PUBLIC) {
        soft.assertThat(send(r).status()).as("public " + r.path()).isEqualTo(200);
        continue;
      }
      Map<String, String[]> cases =
          Map.of(
              "no key",
              new String[0],
              "bad key",
              credential(r, "m0sk_" + "x".repeat(40)),
              "malformed header",
              new String[] {"Authorization", "Token"},
              "revoked key",
              credential(r, revoked.secret()));
      for (var c : cases.entrySet()) {
        var resp = send(r, c.getValue());
        soft.assertThat(resp.status())
            .as(c.getKey() + " on " + r.method() + " " + r.path())
            .isEqualTo(401);
        soft.assertThat(resp.body()).as(c.getKey() + " on " + r.path()).doesNotContain(MARK);
        checked++;
      }
    }
    soft.assertAll();
    assertThat(checked).isGreaterThanOrEqualTo(4 * 35);
    assertThat(dumpAll()).isEqualTo(before);
  }

  @Test
  void aMemberKeyGets403OnEveryAdminRoute() {
    String before = dumpAll();
    SoftAssertions soft = new SoftAssertions();
    int admins = 0;
    for (RouteTable.Route r : f.server.routes()) {
      if (r.access() == Access.ADMIN) {
        admins++;
        var resp = send(r, credential(r, acmeMember));
        soft.assertThat(resp.status()).as(r.method() + " " + r.path()).isEqualTo(403);
        soft.assertThat(resp.json().path("detail").asText()).isEqualTo("role");
      }
    }
    soft.assertAll();
    assertThat(admins).isGreaterThanOrEqualTo(8);
    assertThat(dumpAll()).isEqualTo(before);
  }

  @Test
  void anotherTenantsKeysReadAndChangeNothingOfAcme() {
    String before = dumpAcme();
    SoftAssertions soft = new SoftAssertions();
    for (String key : List.of(globexMember, globexAdmin)) {
      for (RouteTable.Route r : f.server.routes()) {
        if (r.access() == Access.PUBLIC) {
          continue;
        }
        var resp = send(r, credential(r, key));
        String what =
            (key.equals(globexAdmin) ? "admin " : "member ") + r.method() + " " + r.path();
        if (r.access() == Access.ADMIN && key.equals(globexMember)) {
          soft.assertThat(resp.status()).as(what).isEqualTo(403);
          continue;
        }
        soft.assertThat(resp.status()).as(what + ": " + resp.body()).isIn(200, 404);
        // A 404 may echo the id the caller sent; a 200 must not carry any of acme's ids or text.
        for (String secret : resp.status() == 200 ? acmeSecrets : List.of(MARK)) {
          soft.assertThat(resp.body()).as(what).doesNotContain(secret);
        }
        boolean namesAcmeIds =
            r.path().contains("{memory_id}")
                || r.path().contains("{event_id}")
                || r.path()
                    .equals("/v1/batch/"); // (the batch add, /v1/memories/batch/, names no ids: its
        // adds are globex's)
        if (namesAcmeIds) {
          if (r.method().name().equals("GET") && r.path().equals("/memories/{memory_id}")) {
            soft.assertThat(resp.body()).as(what).isEqualTo("null");
          } else {
            soft.assertThat(resp.status()).as(what).isEqualTo(404);
          }
        }
      }
      // After the member's pass globex holds what its adds wrote (the admin's pass ends with a
      // reset of globex).
      String globex = StoreDump.of(f.memory, List.of("globex"));
      for (String secret : acmeSecrets) {
        soft.assertThat(globex)
            .as(
                "globex's data after the pass of its "
                    + (key.equals(globexAdmin) ? "admin" : "member"))
            .doesNotContain(secret);
      }
    }
    soft.assertAll();
    assertThat(dumpAcme()).isEqualTo(before);
    assertThat(f.memory.forTenant("acme").get(memoryId).orElseThrow().text()).contains(MARK);
  }
}

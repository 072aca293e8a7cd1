package dev.engram.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.postgres.PostgresCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two packaged {@code engram serve} processes (different data directories, different ports) on one
 * PostgreSQL 15 database with pgvector ({@code store.provider: postgres}, {@code store.vectors:
 * pgvector}: the production path), as two stateless servers behind a load balancer:
 *
 * <ul>
 *   <li>a key made by {@code engram keys create} against the database works on both, and revoking
 *       it with {@code engram keys revoke} refuses it on both within their key cache's 2 s;
 *   <li>concurrent asynchronous adds (infer off and on, the offline extractor), synchronous adds
 *       and searches through both: every add event accepted by one is seen by the other and
 *       finishes SUCCEEDED, and every memory an acknowledged add wrote is listed and found by
 *       search on both;
 *   <li>no event runs twice (no two memories share a source id {@code <event>:<index>});
 *   <li>the same facts added with inference through both at once to one scope are stored once each;
 *   <li>a server killed with SIGKILL while it runs add events: the other server runs its waiting
 *       events and, once the lease ({@code server.event_lease_seconds: 3}) has ended, takes over
 *       the ones it was running; every accepted event SUCCEEDS with exactly one memory.
 * </ul>
 */
class PostgresMultiServerTest {
  private static final int CLIENTS = 4;
  private static final int ADDS_PER_CLIENT = 12;
  private static final List<String> FACTS =
      List.of(
          "I play the cello every Sunday",
          "My sister lives in Lisbon",
          "I am allergic to peanuts",
          "I work as a night nurse",
          "My cat is called Miso",
          "I am learning Japanese");

  @TempDir Path work;
  private final List<ServedData> servers = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (ServedData s : servers) {
      s.close();
    }
  }

  @Test
  void twoServersOnOneDatabaseShareKeysEventsAndMemories() throws Exception {
    PostgresCluster cluster = PostgresCluster.get();
    cluster.requirePgvector();
    Files.writeString(
        work.resolve("engram.yaml"),
        """
        store:
          provider: postgres
          url: %s
          user: postgres
          schema: %s
          vectors: pgvector
        """
            .formatted(cluster.url(), PostgresCluster.schemaFor(work)));
    EngramJar engram =
        EngramJar.in(work, Map.of("ENGRAM_POSTGRES_PASSWORD", PostgresCluster.PASSWORD));
    String key = engram.ok("keys", "create", "--tenant", "acme", "--admin").out().strip();
    assertThat(key).startsWith("eng_");
    ServedData a = ServedData.attach(engram, work.resolve("a"), key);
    ServedData b = ServedData.attach(engram, work.resolve("b"), key);
    servers.add(a);
    servers.add(b);
    a.start();
    b.start();
    List<ServedData> both = List.of(a, b);

    // Keys: made against the database, valid on both servers; revoked, refused on both.
    String member =
        engram.ok("keys", "create", "--tenant", "acme", "--label", "short-lived").out().strip();
    for (ServedData s : both) {
      assertThat(s.callAs(member, "GET", "/v1/ping/", null).status()).isEqualTo(200);
    }
    String memberId = member.substring(4, 16);
    engram.ok("keys", "revoke", memberId);
    // Each server trusts a key it has checked for server.key_cache_seconds (2 s by default), and no
    // longer.
    Thread.sleep(2_100);
    for (ServedData s : both) {
      assertThat(s.callAs(member, "GET", "/v1/ping/", null).status())
          .as("revoked key")
          .isEqualTo(401);
      assertThat(s.call("GET", "/v1/ping/", null).status()).as("the admin key").isEqualTo(200);
    }

    // Concurrent adds and searches through both servers.
    Map<String, Accepted> accepted = new ConcurrentHashMap<>();
    Map<String, String> syncMemories = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + FACTS.size() * 2);
    try {
      List<Future<?>> tasks = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        tasks.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < ADDS_PER_CLIENT; i++) {
                    ServedData via = both.get((client + i) % 2);
                    String user = "user" + client;
                    String text =
                        "Client "
                            + client
                            + " note "
                            + i
                            + " about the harbour lantern "
                            + (client * 100 + i);
                    boolean infer = i % 3 == 0;
                    if (i % 4 == 3) {
                      JsonNode r =
                          via.expect("POST", "/v1/memories/", addBody(user, text, false), 200);
                      for (JsonNode e : r.path("results")) {
                        if (e.path("event").asText().equals("ADD")) {
                          syncMemories.put(e.path("id").asText(), user);
                        }
                      }
                    } else {
                      JsonNode r =
                          via.expect("POST", "/v3/memories/add/", addBody(user, text, infer), 200);
                      accepted.put(
                          r.path("event_id").asText(),
                          new Accepted(user, text, infer, via == a ? "a" : "b"));
                    }
                    ObjectNode search = ServedData.JSON.createObjectNode();
                    search.put("query", "harbour lantern");
                    search.putObject("filters").put("user_id", user);
                    via.expect("POST", "/v3/memories/search/", search, 200);
                  }
                  return null;
                }));
      }
      // The same facts through both servers at once, with inference, into one scope.
      for (String fact : FACTS) {
        for (ServedData s : both) {
          tasks.add(
              pool.submit(
                  () -> {
                    JsonNode r =
                        s.expect("POST", "/v3/memories/add/", addBody("shared", fact, true), 200);
                    accepted.put(
                        r.path("event_id").asText(),
                        new Accepted("shared", fact, true, s == a ? "a" : "b"));
                    return null;
                  }));
        }
      }
      for (Future<?> f : tasks) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }

    // Every accepted event finishes SUCCEEDED, seen through the server that did not accept it.
    Map<String, Set<String>> expected = new HashMap<>();
    syncMemories.forEach(
        (id, user) -> expected.computeIfAbsent(user, u -> new HashSet<>()).add(id));
    for (Map.Entry<String, Accepted> e : accepted.entrySet()) {
      ServedData other = e.getValue().server().equals("a") ? b : a;
      JsonNode event = other.awaitEvent(e.getKey());
      assertThat(event.path("status").asText())
          .as("event %s: %s", e.getKey(), event)
          .isEqualTo("SUCCEEDED");
      for (JsonNode r : event.path("results")) {
        if (r.path("event").asText().equals("ADD")) {
          expected
              .computeIfAbsent(e.getValue().user(), u -> new HashSet<>())
              .add(r.path("id").asText());
        }
      }
      if (!e.getValue().infer()) {
        assertThat(event.path("results"))
            .as("a verbatim add of one message adds one memory")
            .hasSize(1);
      }
    }
    assertThat(accepted).hasSize(CLIENTS * ADDS_PER_CLIENT * 3 / 4 + FACTS.size() * 2);

    // Every acknowledged write is listed and found by search on both servers.
    for (ServedData s : both) {
      for (Map.Entry<String, Set<String>> e : expected.entrySet()) {
        List<JsonNode> listed = s.listAll(e.getKey());
        Set<String> ids = new HashSet<>();
        listed.forEach(m -> ids.add(m.path("id").asText()));
        assertThat(ids)
            .as("memories of %s listed on %s", e.getKey(), s.dataDir)
            .containsAll(e.getValue());
        List<String> sources = new ArrayList<>();
        listed.forEach(m -> m.path("source_ids").forEach(x -> sources.add(x.asText())));
        assertThat(sources)
            .as("source ids of %s's memories: no event ran twice", e.getKey())
            .doesNotHaveDuplicates();
        for (JsonNode m : listed) {
          if (e.getValue().contains(m.path("id").asText())) {
            assertThat(s.searchIds(e.getKey(), m.path("memory").asText(), 10))
                .as("search on %s for '%s'", s.dataDir, m.path("memory").asText())
                .contains(m.path("id").asText());
          }
        }
      }
    }

    // The facts added through both servers at once are stored once each, and both servers list the
    // same.
    List<JsonNode> sharedOnA = a.listAll("shared");
    List<JsonNode> sharedOnB = b.listAll("shared");
    List<String> texts = new ArrayList<>();
    sharedOnA.forEach(m -> texts.add(m.path("memory").asText()));
    assertThat(texts).as("memories of the shared scope").doesNotHaveDuplicates().isNotEmpty();
    assertThat(sharedOnB)
        .extracting(m -> m.path("id").asText())
        .containsExactlyInAnyOrderElementsOf(
            sharedOnA.stream().map(m -> m.path("id").asText()).toList());
    assertThat(sharedOnA.size())
        .as("at most one memory per fact")
        .isLessThanOrEqualTo(FACTS.size());

    // Both servers list the same events, whichever accepted them.
    JsonNode eventsOnA = a.expect("GET", "/v1/events/?page_size=1000", null, 200);
    JsonNode eventsOnB = b.expect("GET", "/v1/events/?page_size=1000", null, 200);
    Set<String> idsOnA = new HashSet<>();
    eventsOnA.path("results").forEach(e -> idsOnA.add(e.path("id").asText()));
    Set<String> idsOnB = new HashSet<>();
    eventsOnB.path("results").forEach(e -> idsOnB.add(e.path("id").asText()));
    assertThat(idsOnA).containsAll(accepted.keySet()).isEqualTo(idsOnB);
    assertThat(cluster.vectorColumnType(PostgresCluster.schemaFor(work)))
        .as("the pgvector column searched")
        .hasValueSatisfying(type -> assertThat(type).startsWith("vector("));
    System.out.println(
        "multi-server test: "
            + accepted.size()
            + " async adds, "
            + syncMemories.size()
            + " sync memories, shared scope "
            + texts);
  }

  @Test
  void theEventsOfAKilledServerAreFinishedByTheOtherOnce() throws Exception {
    PostgresCluster cluster = PostgresCluster.get();
    cluster.requirePgvector();
    String schema = PostgresCluster.schemaFor(work);
    Files.writeString(
        work.resolve("engram.yaml"),
        """
        store:
          provider: postgres
          url: %s
          user: postgres
          schema: %s
          vectors: pgvector
        server:
          event_lease_seconds: 3
        """
            .formatted(cluster.url(), schema));
    EngramJar engram =
        EngramJar.in(work, Map.of("ENGRAM_POSTGRES_PASSWORD", PostgresCluster.PASSWORD));
    String key = engram.ok("keys", "create", "--tenant", "acme", "--admin").out().strip();
    Set<String> accepted = ConcurrentHashMap.newKeySet();
    Set<String> leftRunning = new HashSet<>();
    // Kill the first server while it runs events: several clients post long messages at once, so
    // the server's
    // workers have a backlog (each long message takes a while to embed) when every post has been
    // answered and the
    // kill comes. Again if every event it ran had still finished by the kill.
    for (int attempt = 0; attempt < 3 && leftRunning.isEmpty(); attempt++) {
      ServedData doomed = ServedData.attach(engram, work.resolve("doomed" + attempt), key);
      servers.add(doomed);
      doomed.start();
      int round = attempt;
      ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
      try {
        List<Future<?>> posts = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          int client = c;
          posts.add(
              clients.submit(
                  () -> {
                    for (int i = 0; i < 10; i++) {
                      JsonNode r =
                          doomed.expect(
                              "POST",
                              "/v3/memories/add/",
                              addBody(
                                  "carol",
                                  longNote("Attempt " + round + " client " + client + " note " + i),
                                  false),
                              200);
                      accepted.add(r.path("event_id").asText());
                    }
                    return null;
                  }));
        }
        for (Future<?> f : posts) {
          f.get();
        }
      } finally {
        clients.shutdownNow();
      }
      doomed.kill();
      leftRunning.addAll(running(cluster, schema));
    }
    assertThat(leftRunning).as("events the killed server was running").isNotEmpty();

    ServedData survivor = ServedData.attach(engram, work.resolve("survivor"), key);
    servers.add(survivor);
    survivor.start();
    // a long note is stored as its passages (Engram.Builder.passageTokens): one or more memories
    // an event, each from the event's one message
    Map<String, List<String>> memoriesOfEvent = new HashMap<>();
    int stored = 0;
    for (String id : accepted) {
      JsonNode event = survivor.awaitEvent(id);
      assertThat(event.path("status").asText())
          .as("event %s: %s", id, event)
          .isEqualTo("SUCCEEDED");
      List<String> added = new ArrayList<>();
      event.path("results").forEach(r -> added.add(r.path("id").asText()));
      assertThat(added).as("memories of event %s", id).isNotEmpty().doesNotHaveDuplicates();
      memoriesOfEvent.put(id, added);
      stored += added.size();
    }
    Map<String, List<String>> bySource = new HashMap<>();
    for (JsonNode m : survivor.listAll("carol")) {
      m.path("source_ids")
          .forEach(
              x ->
                  bySource
                      .computeIfAbsent(x.asText(), k -> new ArrayList<>())
                      .add(m.path("id").asText()));
    }
    for (String id : accepted) {
      assertThat(bySource.get(id + ":0"))
          .as("memories from event %s", id)
          .containsExactlyInAnyOrderElementsOf(memoriesOfEvent.get(id));
    }
    assertThat(survivor.listAll("carol")).hasSize(stored);
    assertThat(cluster.vectorColumnType(schema))
        .as("the pgvector column searched")
        .hasValueSatisfying(type -> assertThat(type).startsWith("vector("));
    System.out.println(
        "killed-server test: "
            + accepted.size()
            + " events, "
            + leftRunning.size()
            + " left running by the killed server, all finished once by the survivor");
  }

  /**
   * A message of some 250 words that starts with {@code head}: long enough that embedding it takes
   * a while.
   */
  private static String longNote(String head) {
    StringBuilder text = new StringBuilder(head).append(" about the quiet orchard.");
    String[] words = {
      "apple",
      "branch",
      "cellar",
      "ladder",
      "basket",
      "blossom",
      "harvest",
      "cider",
      "frost",
      "hedge",
      "meadow",
      "pruning",
      "grafting",
      "orchard",
      "barrel",
      "press"
    };
    for (int i = 0; i < 240; i++) {
      text.append(i % 12 == 0 ? ". The " : " ")
          .append(words[(i * 7 + head.length()) % words.length]);
    }
    return text.append('.').toString();
  }

  /** The ids of the events RUNNING now, read from the database. */
  private static Set<String> running(PostgresCluster cluster, String schema)
      throws java.sql.SQLException {
    Set<String> ids = new HashSet<>();
    try (java.sql.Connection c = cluster.connect();
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs =
            s.executeQuery(
                "SELECT id FROM " + schema + ".server_add_events WHERE status = 'RUNNING'")) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    }
    return ids;
  }

  private static ObjectNode addBody(String user, String text, boolean infer) {
    ObjectNode body = ServedData.JSON.createObjectNode();
    body.putArray("messages").addObject().put("role", "user").put("content", text);
    body.put("user_id", user);
    body.put("infer", infer);
    return body;
  }

  /** An accepted asynchronous add and the server ("a" or "b") that accepted it. */
  record Accepted(String user, String text, boolean infer, String server) {}
}

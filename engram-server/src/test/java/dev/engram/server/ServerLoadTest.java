package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Page;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.json.MemoryJson;
import dev.engram.server.auth.KeyRole;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, proof 5: 32 concurrent HTTP clients (one JDK {@link HttpClient} each) against a real
 * server on 127.0.0.1 for {@value #DEFAULT_SECONDS} s (system property {@code engram.load.seconds}
 * shortens it for local runs), doing a mix of asynchronous adds with event polling, synchronous
 * adds on the hosted and self-hosted routes (infer on and off), searches, listings, reads, updates
 * and deletes over three users of two tenants.
 *
 * <p>Each client updates and deletes only memories it added itself, so the expected final state of
 * every memory is known: afterwards, checked on the store through the {@link Memory} API, every
 * acknowledged add's memories exist with the text of their last acknowledged update, every
 * acknowledged delete is gone, each scope holds exactly the memories the clients were told about,
 * and a search for each surviving memory's text finds it. Every response must be the expected 2xx
 * (404 only for a memory the client deleted). Racing infer adds of the same facts to one scope (a
 * burst of all 32 clients at once, then throughout the run) must leave exactly one memory per
 * distinct fact.
 */
class ServerLoadTest {
  static final long DEFAULT_SECONDS = 60;
  private static final int CLIENTS = 32;
  private static final String[] TENANTS = {"acme", "globex"};
  private static final String[] USERS = {"ann", "bob", "cai"};

  /** The scope every client adds the shared facts to (in each tenant). */
  private static final String SHARED_USER = "shared";

  /**
   * Most live memories one client keeps; beyond it, it deletes instead of adding (bounds the
   * store).
   */
  private static final int MAX_LIVE_PER_CLIENT = 25;

  private static final List<String> SHARED_FACTS =
      List.of(
          "The office espresso machine is descaled every Friday morning",
          "Quarterly planning happens in the glass meeting room upstairs",
          "Our staging cluster runs in the Frankfurt data centre",
          "The team mascot is a knitted octopus named Gustav",
          "Badge access to the roof terrace needs facilities approval",
          "Invoices above ten thousand euros require two signatures",
          "The legacy billing service is written in COBOL and Perl",
          "Winter holiday party tickets are handed out by Priya",
          "Visitors must park behind the red brick warehouse",
          "The printer on floor three jams with recycled paper");
  private static final String[] WORDS = {
    "amber", "basil", "cobalt", "delta", "ember", "fjord", "granite", "harbor", "indigo", "juniper",
    "kestrel", "lantern", "meadow", "nimbus", "orchid", "pepper", "quartz", "raven", "saffron",
    "thistle", "umber", "velvet", "walnut", "xenon", "yarrow", "zephyr", "anchor", "bramble",
    "cedar", "dune", "falcon", "glacier", "heron", "iris", "jasper", "kiln", "lagoon", "maple",
    "nectar", "olive"
  };

  @TempDir Path dir;
  ServerFixture f;
  final Map<String, String> keys = new HashMap<>();

  final Queue<String> errors = new ConcurrentLinkedQueue<>();
  final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  /** Every memory a client was told was added outside the shared scope, by id. */
  final Map<String, Tracked> tracked = new ConcurrentHashMap<>();

  /** Ids of memories the shared-fact adds reported as ADD, per tenant, with their text. */
  final Map<String, Map<String, String>> sharedAdded = new ConcurrentHashMap<>();

  /** The shared facts acknowledged at least once, per tenant. */
  final Map<String, Set<String>> sharedSent = new ConcurrentHashMap<>();

  /**
   * A memory added by one client: its tenant, user, last acknowledged text and whether the client
   * deleted it.
   */
  static final class Tracked {
    final String tenant;
    final String user;
    volatile String text;
    volatile boolean deleted;

    Tracked(String tenant, String user, String text) {
      this.tenant = tenant;
      this.user = user;
      this.text = text;
    }
  }

  @BeforeEach
  void start() {
    f = new ServerFixture(dir);
    for (String t : TENANTS) {
      keys.put(t, f.key(t, KeyRole.MEMBER).secret());
      sharedAdded.put(t, new ConcurrentHashMap<>());
      sharedSent.put(t, ConcurrentHashMap.newKeySet());
    }
  }

  @AfterEach
  void stop() {
    f.close();
  }

  @Test
  void thirtyTwoClientsOfMixedTrafficLoseNothingAndAddNoDuplicates() throws Exception {
    Duration run = Duration.ofSeconds(Long.getLong("engram.load.seconds", DEFAULT_SECONDS));
    CyclicBarrier burst = new CyclicBarrier(CLIENTS);
    long deadline = System.nanoTime() + run.toNanos();
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < CLIENTS; i++) {
      LoadClient client = new LoadClient(i, burst, deadline);
      Thread t = new Thread(client, "load-client-" + i);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(run.getSeconds() + 60));
      assertThat(t.isAlive()).as(t.getName() + " finished").isFalse();
    }
    System.out.println(
        "load test ("
            + run.getSeconds()
            + " s, "
            + CLIENTS
            + " clients): "
            + new java.util.TreeMap<>(counts));
    assertThat(errors).as("unexpected responses (" + errors.size() + ")").isEmpty();
    for (String op :
        new String[] {
          "add.async",
          "add.async.infer",
          "add.sync",
          "add.shared",
          "search",
          "list",
          "get",
          "update",
          "delete"
        }) {
      assertThat(count(op)).as("operations of kind " + op).isPositive();
    }

    verifyTrackedMemories();
    verifySharedFacts();
  }

  /**
   * Every acknowledged write is in the store, every acknowledged delete gone, and nothing else is
   * there.
   */
  private void verifyTrackedMemories() {
    Map<String, Integer> livePerScope = new HashMap<>();
    for (Map.Entry<String, Tracked> e : tracked.entrySet()) {
      Tracked t = e.getValue();
      Memory m = f.memory.forTenant(t.tenant);
      var stored = m.get(e.getKey());
      if (t.deleted) {
        assertThat(stored).as("memory %s deleted by its client", e.getKey()).isEmpty();
        continue;
      }
      assertThat(stored).as("memory %s acknowledged to its client", e.getKey()).isPresent();
      assertThat(stored.get().text()).as("text of %s", e.getKey()).isEqualTo(t.text);
      assertThat(stored.get().userId()).isEqualTo(t.user);
      livePerScope.merge(t.tenant + "/" + t.user, 1, Integer::sum);
      List<String> found =
          m
              .search(SearchRequest.builder(Scope.user(t.user), t.text).topK(10).build())
              .hits()
              .stream()
              .map(h -> h.memory().id())
              .toList();
      assertThat(found).as("a search for the text of %s", e.getKey()).contains(e.getKey());
    }
    assertThat(livePerScope).as("memories left").isNotEmpty();
    for (String tenant : TENANTS) {
      for (String user : USERS) {
        Page<MemoryItem> page =
            f.memory
                .forTenant(tenant)
                .list(ListRequest.of(Scope.user(user)).withPage(0, ListRequest.MAX_LIMIT));
        assertThat(page.total())
            .as("memories of %s/%s", tenant, user)
            .isEqualTo((long) livePerScope.getOrDefault(tenant + "/" + user, 0));
      }
    }
  }

  /**
   * One memory per distinct shared fact, and it is the one memory every racing add was told about.
   */
  private void verifySharedFacts() {
    for (String tenant : TENANTS) {
      Page<MemoryItem> page =
          f.memory
              .forTenant(tenant)
              .list(ListRequest.of(Scope.user(SHARED_USER)).withPage(0, ListRequest.MAX_LIMIT));
      Map<String, Integer> perText = new HashMap<>();
      Set<String> ids = new HashSet<>();
      for (MemoryItem m : page.items()) {
        perText.merge(m.text(), 1, Integer::sum);
        ids.add(m.id());
      }
      assertThat(perText.values())
          .as("memories per shared fact in " + tenant)
          .allMatch(n -> n == 1);
      assertThat(perText.keySet())
          .as("shared facts in " + tenant)
          .containsExactlyInAnyOrderElementsOf(sharedSent.get(tenant));
      assertThat(sharedAdded.get(tenant).keySet())
          .as("ids reported as ADD in " + tenant)
          .containsExactlyInAnyOrderElementsOf(ids);
      assertThat(sharedSent.get(tenant))
          .as("the burst's fact was sent in " + tenant)
          .contains(SHARED_FACTS.get(0));
    }
  }

  private long count(String op) {
    AtomicLong n = counts.get(op);
    return n == null ? 0 : n.get();
  }

  /** One client: its own HTTP client, tenant, random stream and owned memories. */
  private final class LoadClient implements Runnable {
    private final int index;
    private final String tenant;
    private final String key;
    private final Random random;
    private final CyclicBarrier burst;
    private final long deadline;
    private final HttpClient http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final List<String> live = new ArrayList<>();
    private final List<String> deleted = new ArrayList<>();
    private int serial;

    LoadClient(int index, CyclicBarrier burst, long deadline) {
      this.index = index;
      this.tenant = TENANTS[index % TENANTS.length];
      this.key = keys.get(tenant);
      this.random = new Random(9000L + index);
      this.burst = burst;
      this.deadline = deadline;
    }

    @Override
    public void run() {
      try {
        burst.await(60, TimeUnit.SECONDS);
        addShared(SHARED_FACTS.get(0), index % 2 == 0);
        while (System.nanoTime() < deadline) {
          step();
        }
      } catch (Exception | AssertionError e) {
        errors.add("client " + index + " stopped: " + e);
      }
    }

    private void step() {
      int roll = random.nextInt(100);
      boolean full = live.size() >= MAX_LIVE_PER_CLIENT;
      if (roll < 14 && !full) {
        addAsync(false);
      } else if (roll < 24 && !full) {
        addAsync(true);
      } else if (roll < 34 && !full) {
        addSync();
      } else if (roll < 44) {
        addShared(SHARED_FACTS.get(random.nextInt(SHARED_FACTS.size())), random.nextBoolean());
      } else if (roll < 60) {
        search();
      } else if (roll < 68) {
        list();
      } else if (roll < 76) {
        getOne();
      } else if (roll < 88) {
        update();
      } else {
        delete();
      }
    }

    private String user() {
      return USERS[random.nextInt(USERS.length)];
    }

    /**
     * A sentence no other client writes (distinct words, so the offline extractor keeps it as a new
     * fact).
     */
    private String uniqueText() {
      serial++;
      return "Client "
          + index
          + " logged item "
          + serial
          + " about the "
          + word()
          + " "
          + word()
          + " near the "
          + word()
          + " "
          + word()
          + ".";
    }

    private String word() {
      return WORDS[random.nextInt(WORDS.length)];
    }

    private ObjectNode addBody(String user, String text, boolean infer) {
      ObjectNode body = MemoryJson.mapper().createObjectNode();
      body.putArray("messages").addObject().put("role", "user").put("content", text);
      body.put("user_id", user);
      body.put("infer", infer);
      return body;
    }

    private void addAsync(boolean infer) {
      String user = user();
      ObjectNode body = addBody(user, uniqueText(), infer);
      JsonNode accepted =
          expect(infer ? "add.async.infer" : "add.async", "POST", "/v3/memories/add/", body, 200);
      if (accepted == null) {
        return;
      }
      if (!"PENDING".equals(accepted.path("status").asText())) {
        errors.add("async add not PENDING: " + accepted);
        return;
      }
      JsonNode event = awaitEvent(accepted.path("event_id").asText());
      if (event != null) {
        record(user, event.path("results"), infer);
      }
    }

    private void addSync() {
      String user = user();
      boolean infer = random.nextBoolean();
      String path = random.nextBoolean() ? "/v1/memories/" : "/memories";
      JsonNode reply = expect("add.sync", "POST", path, addBody(user, uniqueText(), infer), 200);
      if (reply != null) {
        record(user, reply.path("results"), infer);
      }
    }

    private void record(String user, JsonNode results, boolean infer) {
      int added = 0;
      for (JsonNode r : results) {
        if (!"ADD".equals(r.path("event").asText())) {
          errors.add("a unique fact did not give ADD: " + r);
          continue;
        }
        String id = r.path("id").asText();
        tracked.put(id, new Tracked(tenant, user, r.path("memory").asText()));
        live.add(id);
        added++;
      }
      if (added != 1) {
        errors.add(
            "an add of one unique sentence (infer="
                + infer
                + ") gave "
                + added
                + " ADD events: "
                + results);
      }
    }

    private void addShared(String fact, boolean async) {
      ObjectNode body = addBody(SHARED_USER, fact, true);
      JsonNode results;
      if (async) {
        JsonNode accepted = expect("add.shared", "POST", "/v3/memories/add/", body, 200);
        JsonNode event = accepted == null ? null : awaitEvent(accepted.path("event_id").asText());
        results = event == null ? null : event.path("results");
      } else {
        JsonNode reply =
            expect(
                "add.shared",
                "POST",
                random.nextBoolean() ? "/v1/memories/" : "/memories",
                body,
                200);
        results = reply == null ? null : reply.path("results");
      }
      if (results == null) {
        return;
      }
      sharedSent.get(tenant).add(fact);
      for (JsonNode r : results) {
        String event = r.path("event").asText();
        if (event.equals("ADD")) {
          String previous =
              sharedAdded.get(tenant).putIfAbsent(r.path("id").asText(), r.path("memory").asText());
          if (previous != null) {
            errors.add("memory " + r.path("id").asText() + " reported as ADD twice");
          }
        } else if (!event.equals("NOOP")) {
          errors.add("a shared fact gave " + event + ": " + r);
        }
      }
    }

    private JsonNode awaitEvent(String eventId) {
      long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      long pause = 5;
      while (System.nanoTime() < giveUp) {
        JsonNode e = expect("event", "GET", "/v1/event/" + eventId + "/", null, 200);
        if (e == null) {
          return null;
        }
        String status = e.path("status").asText();
        if (status.equals("SUCCEEDED")) {
          return e;
        }
        if (status.equals("FAILED")) {
          errors.add("event " + eventId + " FAILED: " + e.path("error").asText());
          return null;
        }
        sleep(pause);
        pause = Math.min(pause * 2, 100);
      }
      errors.add("event " + eventId + " not finished after 60 s");
      return null;
    }

    private void search() {
      String user = user();
      ObjectNode body = MemoryJson.mapper().createObjectNode();
      body.put("query", word() + " " + word());
      body.putObject("filters").put("user_id", user);
      body.put("top_k", 5);
      boolean selfHosted = random.nextInt(4) == 0;
      if (selfHosted) {
        body.remove("filters");
        body.put("user_id", user);
      }
      JsonNode reply =
          expect("search", "POST", selfHosted ? "/search" : "/v3/memories/search/", body, 200);
      if (reply != null) {
        for (JsonNode hit : reply.path("results")) {
          if (!user.equals(hit.path("user_id").asText())) {
            errors.add("search in " + user + " returned " + hit);
          }
        }
      }
    }

    private void list() {
      String user = user();
      if (random.nextBoolean()) {
        ObjectNode body = MemoryJson.mapper().createObjectNode();
        body.putObject("filters").put("user_id", user);
        JsonNode page = expect("list", "POST", "/v3/memories/?page=1&page_size=50", body, 200);
        if (page != null && !page.path("count").canConvertToLong()) {
          errors.add("listing without a count: " + page);
        }
      } else {
        expect(
            "list",
            "GET",
            "/memories?user_id=" + URLEncoder.encode(user, StandardCharsets.UTF_8),
            null,
            200);
      }
    }

    private void getOne() {
      if (!deleted.isEmpty() && random.nextInt(3) == 0) {
        String id = deleted.get(random.nextInt(deleted.size()));
        expect("get.deleted", "GET", "/v1/memories/" + id + "/", null, 404);
        return;
      }
      if (live.isEmpty()) {
        return;
      }
      String id = live.get(random.nextInt(live.size()));
      JsonNode item = expect("get", "GET", "/v1/memories/" + id + "/", null, 200);
      if (item != null && !item.path("memory").asText().equals(tracked.get(id).text)) {
        errors.add(
            "memory "
                + id
                + " reads '"
                + item.path("memory").asText()
                + "', expected '"
                + tracked.get(id).text
                + "'");
      }
    }

    private void update() {
      if (live.isEmpty()) {
        return;
      }
      String id = live.get(random.nextInt(live.size()));
      String text =
          "Revised by client "
              + index
              + " as the "
              + word()
              + " "
              + word()
              + " "
              + word()
              + " entry "
              + (++serial);
      ObjectNode body = MemoryJson.mapper().createObjectNode().put("text", text);
      boolean hosted = random.nextBoolean();
      JsonNode reply =
          expect(
              "update", "PUT", hosted ? "/v1/memories/" + id + "/" : "/memories/" + id, body, 200);
      if (reply == null) {
        return;
      }
      if (hosted && !reply.path("memory").asText().equals(text)) {
        errors.add("update of " + id + " answered " + reply);
      }
      tracked.get(id).text = text;
    }

    private void delete() {
      if (live.isEmpty()) {
        return;
      }
      String id = live.remove(random.nextInt(live.size()));
      boolean hosted = random.nextBoolean();
      JsonNode reply =
          expect(
              "delete",
              "DELETE",
              hosted ? "/v1/memories/" + id + "/" : "/memories/" + id,
              null,
              200);
      if (reply == null) {
        live.add(id);
        return;
      }
      tracked.get(id).deleted = true;
      deleted.add(id);
      expect("get.deleted", "GET", "/v1/memories/" + id + "/", null, 404);
    }

    /**
     * Sends a request; returns the JSON reply if the status is the expected one, else records an
     * error.
     */
    private JsonNode expect(String op, String method, String path, JsonNode body, int status) {
      counts.computeIfAbsent(op, k -> new AtomicLong()).incrementAndGet();
      HttpRequest.Builder b =
          HttpRequest.newBuilder(URI.create(f.base() + path))
              .timeout(Duration.ofSeconds(60))
              .header("Authorization", "Token " + key);
      if (body != null) {
        b.header("Content-Type", "application/json")
            .method(
                method,
                HttpRequest.BodyPublishers.ofString(
                    MemoryJson.write(body), StandardCharsets.UTF_8));
      } else {
        b.method(method, HttpRequest.BodyPublishers.noBody());
      }
      HttpResponse<String> r;
      try {
        r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      } catch (IOException e) {
        errors.add(op + " " + method + " " + path + ": " + e);
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        errors.add(op + " interrupted");
        return null;
      }
      if (r.statusCode() != status) {
        String text = r.body();
        errors.add(
            op
                + " "
                + method
                + " "
                + path
                + " -> "
                + r.statusCode()
                + " (expected "
                + status
                + "): "
                + (text.length() > 300 ? text.substring(0, 300) : text));
        return null;
      }
      try {
        return MemoryJson.mapper().readTree(r.body());
      } catch (IOException e) {
        errors.add(op + " " + method + " " + path + ": not JSON: " + r.body());
        return null;
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

package dev.engram.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9, proof 6: the packaged {@code engram serve} killed with SIGKILL under load, {@value
 * #DEFAULT_ROUNDS} rounds (system property {@code engram.crash.rounds}) on one data directory. In
 * each round a few clients add (asynchronously with an event id, and synchronously, infer on and
 * off), update and delete their own memories and search, the server is killed at a random moment,
 * and restarted. After every restart:
 *
 * <ul>
 *   <li>every accepted add event (the client got its event id) finishes: SUCCEEDED with its
 *       memories, or FAILED with a reason; none ran twice (no two memories share a source id, and
 *       an event's source id {@code <event>:0} belongs to exactly the memories its results name);
 *   <li>every write that got a 2xx is there: synchronous adds' memories with the text of their last
 *       acknowledged update, acknowledged deletes gone; a write cut off by the kill may have
 *       happened or not, but nothing else appears (every memory is one the clients wrote);
 *   <li>the index agrees with the record: a search of the whole scope returns exactly the listed
 *       memories, and a search for the exact text of each memory written in the round (all memories
 *       after the last round) finds it.
 * </ul>
 */
class ServerCrashTest {
  static final int DEFAULT_ROUNDS = 20;
  private static final String[] USERS = {"ann", "bob"};
  private static final int CLIENTS = 4;

  /**
   * Operations a client does per round at most, so that no scope outgrows one search of 1,000 hits.
   */
  private static final int OPS_PER_CLIENT_AND_ROUND = 30;

  private static final String[] WORDS = {
    "amber", "basil", "cobalt", "delta", "ember", "fjord", "granite", "harbor", "indigo", "juniper",
    "kestrel", "lantern", "meadow", "nimbus", "orchid", "pepper", "quartz", "raven", "saffron",
    "thistle", "umber", "velvet", "walnut", "yarrow", "zephyr", "anchor", "bramble", "cedar"
  };

  @TempDir Path work;
  ServedData served;

  /** A synchronously added memory: its user, the texts it may have, and whether it was deleted. */
  static final class Known {
    final String user;
    final int owner;
    final Set<String> texts = ConcurrentHashMap.newKeySet();
    volatile Deletion deletion = Deletion.NONE;

    Known(String user, int owner, String text) {
      this.user = user;
      this.owner = owner;
      texts.add(text);
    }
  }

  enum Deletion {
    NONE,
    MAYBE,
    ACKED
  }

  /** An add whose reply never came (the server was killed): it may or may not have happened. */
  record Uncertain(String user, String text) {}

  /** An accepted asynchronous add. */
  record Accepted(String user, String text) {}

  final Map<String, Known> known = new ConcurrentHashMap<>();
  final Map<String, Accepted> accepted = new ConcurrentHashMap<>();

  /** Finished events: their ADD memory ids (empty for a FAILED one). */
  final Map<String, Set<String>> finished = new HashMap<>();

  final Set<String> eventMemories = new HashSet<>();
  final UncertainAdds uncertain = new UncertainAdds();
  final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();

  /** Ids written since the last check: their exact texts are searched for. */
  final Set<String> fresh = ConcurrentHashMap.newKeySet();

  final AtomicInteger serial = new AtomicInteger();

  /** Writes acknowledged in the current round, and in all rounds by kind. */
  final AtomicInteger roundWrites = new AtomicInteger();

  final Map<String, AtomicInteger> acknowledgedByKind = new ConcurrentHashMap<>();

  /** The uncertain adds (thread-safe). */
  static final class UncertainAdds {
    private final List<Uncertain> items = new ArrayList<>();

    synchronized void add(Uncertain u) {
      items.add(u);
    }

    synchronized boolean take(String user, String text) {
      return items.remove(new Uncertain(user, text));
    }

    synchronized int size() {
      return items.size();
    }
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (served != null) {
      served.close();
    }
  }

  @Test
  void everyAcknowledgedWriteSurvivesSigkillUnderLoadAndEveryEventFinishesOnce() throws Exception {
    int rounds = Integer.getInteger("engram.crash.rounds", DEFAULT_ROUNDS);
    long seed = Long.getLong("engram.crash.seed", System.nanoTime());
    Random random = new Random(seed);
    served = ServedData.create(work);
    int[] writesPerRound = new int[rounds];
    for (int round = 0; round < rounds; round++) {
      served.start();
      if (round > 0) {
        check(random, false, "after kill " + round + " (seed " + seed + ")");
      }
      int before = known.size() + accepted.size();
      List<Thread> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        Thread t = new Thread(new Client(c, new Random(random.nextLong())), "crash-client-" + c);
        clients.add(t);
        t.start();
      }
      // Kill at a random moment once the clients are under way (the first requests of a fresh JVM
      // are slow).
      roundWrites.set(0);
      long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (roundWrites.get() < 3 && System.nanoTime() < waitUntil && errors.isEmpty()) {
        Thread.sleep(20);
      }
      Thread.sleep(random.nextInt(2000));
      served.kill();
      for (Thread t : clients) {
        t.join(TimeUnit.SECONDS.toMillis(90));
        assertThat(t.isAlive()).as(t.getName() + " stopped after the kill").isFalse();
      }
      writesPerRound[round] = known.size() + accepted.size() - before;
      assertThat(errors)
          .as("unexpected replies before the kill in round " + round + " (seed " + seed + ")")
          .isEmpty();
    }
    served.start();
    check(random, true, "after the last kill (seed " + seed + ")");
    JsonNode events = served.expect("GET", "/v1/events/?page_size=1000", null, 200);
    for (JsonNode e : events.path("results")) {
      assertThat(e.path("status").asText())
          .as("event " + e.path("id").asText() + " after the last restart")
          .isIn("SUCCEEDED", "FAILED");
    }
    System.out.println(
        "crash test: "
            + rounds
            + " rounds, seed "
            + seed
            + ", acknowledged adds per round "
            + java.util.Arrays.toString(writesPerRound)
            + ", acknowledged writes "
            + acknowledgedByKind
            + ", memories "
            + known.size()
            + " sync + "
            + eventMemories.size()
            + " from "
            + finished.size()
            + " events, "
            + uncertain.size()
            + " uncertain adds never seen");
    assertThat(finished).as("accepted add events").isNotEmpty();
    assertThat(acknowledgedByKind)
        .as("acknowledged writes by kind")
        .containsKeys("async add", "sync add", "update", "delete");
    served.running().process().destroy();
    served.running().process().waitFor(60, TimeUnit.SECONDS);
  }

  /** Everything the clients were told holds on the restarted server. */
  private void check(Random random, boolean all, String when) throws InterruptedException {
    for (Map.Entry<String, Accepted> e : accepted.entrySet()) {
      if (finished.containsKey(e.getKey())) {
        continue;
      }
      JsonNode event = served.awaitEvent(e.getKey());
      Set<String> ids = new HashSet<>();
      if (event.path("status").asText().equals("SUCCEEDED")) {
        for (JsonNode r : event.path("results")) {
          if (r.path("event").asText().equals("ADD")) {
            ids.add(r.path("id").asText());
          }
        }
        assertThat(ids)
            .as("memories of the unique add of event %s %s", e.getKey(), when)
            .hasSize(1);
      } else {
        assertThat(event.path("error").asText())
            .as("the reason event %s failed %s", e.getKey(), when)
            .isNotBlank();
      }
      finished.put(e.getKey(), ids);
      eventMemories.addAll(ids);
      fresh.addAll(ids);
    }
    // Events whose reply the kill cut off are resumed too: their memories must be in before the
    // listing, or one
    // could appear between the listing and the search of the index.
    served.awaitEventsFinished();
    for (String user : USERS) {
      List<JsonNode> listed = served.listAll(user);
      Map<String, JsonNode> byId = new HashMap<>();
      Map<String, Integer> perSource = new HashMap<>();
      for (JsonNode m : listed) {
        byId.put(m.path("id").asText(), m);
        m.path("source_ids").forEach(s -> perSource.merge(s.asText(), 1, Integer::sum));
      }
      perSource.forEach(
          (source, n) ->
              assertThat(n).as("memories with source id %s %s", source, when).isEqualTo(1));
      for (Map.Entry<String, Set<String>> e : finished.entrySet()) {
        if (!accepted.get(e.getKey()).user().equals(user)) {
          continue;
        }
        Set<String> withSource = new HashSet<>();
        for (JsonNode m : listed) {
          for (JsonNode s : m.path("source_ids")) {
            if (s.asText().equals(e.getKey() + ":0")) {
              withSource.add(m.path("id").asText());
            }
          }
        }
        assertThat(withSource)
            .as("memories of event %s %s", e.getKey(), when)
            .containsExactlyInAnyOrderElementsOf(e.getValue());
      }
      for (Map.Entry<String, Known> e : known.entrySet()) {
        Known k = e.getValue();
        if (!k.user.equals(user)) {
          continue;
        }
        JsonNode m = byId.get(e.getKey());
        if (k.deletion == Deletion.ACKED) {
          assertThat(m).as("memory %s, deleted with a 2xx, %s", e.getKey(), when).isNull();
          continue;
        }
        if (k.deletion == Deletion.MAYBE) {
          k.deletion = m == null ? Deletion.ACKED : Deletion.NONE;
          if (m == null) {
            continue;
          }
        }
        assertThat(m).as("memory %s, added with a 2xx, %s", e.getKey(), when).isNotNull();
        String text = m.path("memory").asText();
        assertThat(k.texts)
            .as("acknowledged or in-flight texts of %s %s", e.getKey(), when)
            .contains(text);
        k.texts.retainAll(Set.of(text));
      }
      for (JsonNode m : listed) {
        String id = m.path("id").asText();
        if (known.containsKey(id) || eventMemories.contains(id)) {
          continue;
        }
        String text = m.path("memory").asText();
        assertThat(uncertain.take(user, text))
            .as("memory %s ('%s') %s comes from an add cut off by a kill", id, text, when)
            .isTrue();
        if (m.path("source_ids").isEmpty()) {
          known.put(id, new Known(user, -1, text));
        } else {
          eventMemories.add(id);
        }
        fresh.add(id);
      }
      List<String> inIndex = served.searchIds(user, "note about the place", 1000);
      Set<String> notFound = new HashSet<>(byId.keySet());
      inIndex.forEach(notFound::remove);
      Set<String> notListed = new HashSet<>(inIndex);
      notListed.removeAll(byId.keySet());
      // the differences first: the two whole lists are long
      assertThat(inIndex)
          .as(
              "a search of all of %s's memories (the index) %s: listed but not found %s, found but"
                  + " not listed %s",
              user, when, notFound, notListed)
          .containsExactlyInAnyOrderElementsOf(byId.keySet());
      List<String> ids = new ArrayList<>(byId.keySet());
      Set<String> probe = new LinkedHashSet<>();
      for (String id : ids) {
        if (all || fresh.contains(id)) {
          probe.add(id);
        }
      }
      for (int i = 0; i < 5 && !ids.isEmpty(); i++) {
        probe.add(ids.get(random.nextInt(ids.size())));
      }
      for (String id : probe) {
        String text = byId.get(id).path("memory").asText();
        assertThat(served.searchIds(user, text, 10))
            .as("a search for the text of %s %s", id, when)
            .contains(id);
      }
    }
    fresh.clear();
  }

  /** One client of a round: writes until the server goes away. */
  private final class Client implements Runnable {
    private final int index;
    private final Random random;

    Client(int index, Random random) {
      this.index = index;
      this.random = random;
    }

    @Override
    public void run() {
      try {
        for (int done = 0; ; done++) {
          if (done >= OPS_PER_CLIENT_AND_ROUND) {
            // Enough for this round (keeps each scope within one search's top_k): wait for the
            // kill.
            served.call("GET", "/v1/ping/", null);
            Thread.sleep(50);
            continue;
          }
          int roll = random.nextInt(100);
          if (roll < 35) {
            addAsync();
          } else if (roll < 65) {
            addSync();
          } else if (roll < 80) {
            update();
          } else if (roll < 90) {
            delete();
          } else {
            expectOk(served.call("POST", "/v3/memories/search/", searchBody()), "search");
          }
        }
      } catch (IOException serverGone) {
        // The kill: this client's round is over.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException | AssertionError e) {
        errors.add("client " + index + ": " + e);
      }
    }

    private String user() {
      return USERS[random.nextInt(USERS.length)];
    }

    /**
     * A sentence no earlier one can be a near-duplicate of for the offline extractor (token Jaccard
     * 0.9): the client and the serial are distinct tokens ({@code c3}, {@code n3}), so two notes
     * share at most 11 of 13 tokens (0.85).
     */
    private String text() {
      return "Client c"
          + index
          + " stored note n"
          + serial.incrementAndGet()
          + " about the "
          + WORDS[random.nextInt(WORDS.length)]
          + " "
          + WORDS[random.nextInt(WORDS.length)]
          + " near the "
          + WORDS[random.nextInt(WORDS.length)]
          + " place";
    }

    private ObjectNode addBody(String user, String text) {
      ObjectNode body = ServedData.JSON.createObjectNode();
      body.putArray("messages").addObject().put("role", "user").put("content", text);
      body.put("user_id", user);
      body.put("infer", random.nextBoolean());
      return body;
    }

    private ObjectNode searchBody() {
      ObjectNode body = ServedData.JSON.createObjectNode();
      body.put("query", WORDS[random.nextInt(WORDS.length)]);
      body.putObject("filters").put("user_id", user());
      return body;
    }

    private void addAsync() throws IOException, InterruptedException {
      String user = user();
      String text = text();
      ServedData.Reply r;
      try {
        r = served.call("POST", "/v3/memories/add/", addBody(user, text));
      } catch (IOException cut) {
        uncertain.add(new Uncertain(user, text));
        throw cut;
      }
      expectOk(r, "async add");
      accepted.put(r.json().path("event_id").asText(), new Accepted(user, text));
      acknowledged("async add");
    }

    private void acknowledged(String kind) {
      roundWrites.incrementAndGet();
      acknowledgedByKind.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
    }

    private void addSync() throws IOException, InterruptedException {
      String user = user();
      String text = text();
      ServedData.Reply r;
      try {
        r =
            served.call(
                "POST", random.nextBoolean() ? "/v1/memories/" : "/memories", addBody(user, text));
      } catch (IOException cut) {
        uncertain.add(new Uncertain(user, text));
        throw cut;
      }
      expectOk(r, "sync add");
      int added = 0;
      for (JsonNode e : r.json().path("results")) {
        if (e.path("event").asText().equals("ADD")) {
          String id = e.path("id").asText();
          known.put(id, new Known(user, index, e.path("memory").asText()));
          fresh.add(id);
          added++;
        }
      }
      if (added != 1) {
        errors.add("a sync add of one unique sentence gave " + r.body());
      }
      acknowledged("sync add");
    }

    private String ownLive() {
      List<String> mine = new ArrayList<>();
      known.forEach(
          (id, k) -> {
            if (k.owner == index && k.deletion == Deletion.NONE) {
              mine.add(id);
            }
          });
      mine.sort(null);
      return mine.isEmpty() ? null : mine.get(random.nextInt(mine.size()));
    }

    private void update() throws IOException, InterruptedException {
      String id = ownLive();
      if (id == null) {
        return;
      }
      String text = "Revised " + text();
      Known k = known.get(id);
      k.texts.add(text);
      ServedData.Reply r =
          served.call(
              "PUT",
              "/v1/memories/" + id + "/",
              ServedData.JSON.createObjectNode().put("text", text));
      expectOk(r, "update");
      k.texts.retainAll(Set.of(text));
      fresh.add(id);
      acknowledged("update");
    }

    private void delete() throws IOException, InterruptedException {
      String id = ownLive();
      if (id == null) {
        return;
      }
      Known k = known.get(id);
      k.deletion = Deletion.MAYBE;
      ServedData.Reply r = served.call("DELETE", "/v1/memories/" + id + "/", null);
      expectOk(r, "delete");
      k.deletion = Deletion.ACKED;
      acknowledged("delete");
    }

    private void expectOk(ServedData.Reply r, String what) {
      if (r.status() != 200 || r.json() == null) {
        throw new AssertionError(what + " -> " + r.status() + ": " + r.body());
      }
    }
  }
}

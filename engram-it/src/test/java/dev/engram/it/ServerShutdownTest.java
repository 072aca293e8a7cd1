package dev.engram.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 9's graceful shutdown: SIGTERM ({@link Process#destroy()}) to the packaged {@code engram
 * serve} while synchronous and asynchronous adds are in flight and a burst of accepted adds waits
 * in the queue. The process exits with 0 well within the 20 s grace; no add event is left RUNNING
 * (the running ones finished, the queued ones stay PENDING); after a restart every acknowledged add
 * is there, every accepted event finishes SUCCEEDED, and the index agrees with the record.
 */
class ServerShutdownTest {
  private static final String USER = "dana";
  private static final int CLIENTS = 4;

  /** Asynchronous adds each client sends as fast as it can just before the SIGTERM. */
  private static final int BURST = 40;

  /**
   * Adds each client sends at most before its burst (keeps the scope within one search of 1,000
   * hits).
   */
  private static final int MAX_BEFORE_BURST = 25;

  @TempDir Path work;
  ServedData served;

  final Map<String, String> acknowledged = new ConcurrentHashMap<>();
  final Set<String> events = ConcurrentHashMap.newKeySet();
  final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
  final AtomicInteger serial = new AtomicInteger();

  @AfterEach
  void stop() throws InterruptedException {
    if (served != null) {
      served.close();
    }
  }

  @Test
  void sigtermFinishesInFlightWorkExitsZeroAndLeavesQueuedAddsForTheRestart() throws Exception {
    served = ServedData.create(work);
    served.start();
    CountDownLatch burstSent = new CountDownLatch(CLIENTS);
    List<Thread> clients = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      int index = c;
      Thread t = new Thread(() -> client(index, burstSent), "shutdown-client-" + c);
      clients.add(t);
      t.start();
    }
    assertThat(burstSent.await(2, TimeUnit.MINUTES)).as("the clients sent their bursts").isTrue();
    Process process = served.running().process();
    process.destroy();
    boolean exited = process.waitFor(40, TimeUnit.SECONDS);
    for (Thread t : clients) {
      t.join(TimeUnit.SECONDS.toMillis(60));
    }
    assertThat(exited).as("engram serve stopped after SIGTERM (grace 20 s)").isTrue();
    assertThat(process.exitValue())
        .as("exit code after SIGTERM; stderr:\n" + EngramJar.Running.tail(served.running().err()))
        .isZero();
    assertThat(errors).as("unexpected replies").isEmpty();
    assertThat(served.running().err()).contains("engram serve stopping");

    Map<String, Integer> statuses = eventStatuses();
    assertThat(statuses)
        .as("add events by status after a graceful stop")
        .doesNotContainKey("RUNNING");
    assertThat(statuses.getOrDefault("PENDING", 0))
        .as("queued adds left for the restart")
        .isPositive();

    served.start();
    Set<String> eventIds = new HashSet<>();
    for (String id : events) {
      JsonNode e = served.awaitEvent(id);
      assertThat(e.path("status").asText())
          .as("event %s after the restart: %s", id, e)
          .isEqualTo("SUCCEEDED");
      for (JsonNode r : e.path("results")) {
        eventIds.add(r.path("id").asText());
      }
    }
    List<JsonNode> listed = served.listAll(USER);
    Map<String, String> byId = new HashMap<>();
    listed.forEach(m -> byId.put(m.path("id").asText(), m.path("memory").asText()));
    assertThat(byId).as("every acknowledged synchronous add").containsAllEntriesOf(acknowledged);
    assertThat(byId.keySet()).as("every accepted asynchronous add").containsAll(eventIds);
    assertThat(served.searchIds(USER, "note about the shutdown", 1000))
        .as("the index after the restart")
        .containsExactlyInAnyOrderElementsOf(byId.keySet());
    System.out.println(
        "shutdown test: "
            + acknowledged.size()
            + " sync adds, "
            + events.size()
            + " accepted events, statuses at the stop "
            + statuses
            + ", "
            + listed.size()
            + " memories after");
  }

  /**
   * Adds (synchronous and asynchronous) for a moment, then a burst of asynchronous ones, then more
   * until stopped.
   */
  private void client(int index, CountDownLatch burstSent) {
    boolean counted = false;
    try {
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1500);
      int n = 0;
      while (System.nanoTime() < until && n < MAX_BEFORE_BURST) {
        add(index, n++ % 2 == 0);
      }
      for (int i = 0; i < BURST; i++) {
        add(index, true);
      }
      burstSent.countDown();
      counted = true;
      while (true) {
        add(index, n++ % 2 == 0);
      }
    } catch (IOException stopped) {
      // The server closed: this client is done.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | AssertionError e) {
      errors.add("client " + index + ": " + e);
    } finally {
      if (!counted) {
        burstSent.countDown();
      }
    }
  }

  private void add(int index, boolean async) throws IOException, InterruptedException {
    ObjectNode body = ServedData.JSON.createObjectNode();
    body.putArray("messages")
        .addObject()
        .put("role", "user")
        .put(
            "content",
            "Client "
                + index
                + " wrote note "
                + serial.incrementAndGet()
                + " about the shutdown drill");
    body.put("user_id", USER);
    body.put("infer", serial.get() % 3 == 0);
    ServedData.Reply r = served.call("POST", async ? "/v3/memories/add/" : "/v1/memories/", body);
    if (r.status() == 503) {
      throw new IOException("stopping: " + r.body());
    }
    if (r.status() != 200 || r.json() == null) {
      errors.add((async ? "async" : "sync") + " add -> " + r.status() + ": " + r.body());
      return;
    }
    if (async) {
      events.add(r.json().path("event_id").asText());
    } else {
      for (JsonNode e : r.json().path("results")) {
        if (e.path("event").asText().equals("ADD")) {
          acknowledged.put(e.path("id").asText(), e.path("memory").asText());
        }
      }
    }
  }

  /** The add events of server.db by status, read directly while no server runs. */
  private Map<String, Integer> eventStatuses() throws SQLException {
    Map<String, Integer> out = new HashMap<>();
    try (Connection c =
            DriverManager.getConnection("jdbc:sqlite:" + served.dataDir.resolve("server.db"));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT status, COUNT(*) FROM add_events GROUP BY status")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getInt(2));
      }
    }
    return out;
  }
}

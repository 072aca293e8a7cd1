package dev.engram.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One data directory served by the packaged {@code engram serve --port 0} as a child process,
 * started and stopped again and again by crash and shutdown tests, with an admin key of tenant
 * {@code acme} made by {@code engram keys create}, and a small JSON client for it.
 */
final class ServedData {
  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The smaller in-process model: the same on every start (the data directory records it), quick to
   * load.
   */
  static final String EMBEDDER = "all-minilm-l6-v2-q";

  private static final String LISTENING = "listening on http://";

  final Path dataDir;
  final String key;
  private final EngramJar jar;
  private EngramJar.Running running;
  private String base;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private ServedData(EngramJar jar, Path dataDir, String key) {
    this.jar = jar;
    this.dataDir = dataDir;
    this.key = key;
  }

  /** A fresh data directory under {@code work} with one admin key. */
  static ServedData create(Path work) throws IOException, InterruptedException {
    EngramJar jar = EngramJar.in(work, Map.of());
    Path dir = work.resolve("data");
    String key =
        jar.ok("keys", "create", "--tenant", "acme", "--admin", "--data-dir", dir.toString())
            .out()
            .strip();
    if (!key.startsWith("eng_")) {
      throw new AssertionError("engram keys create printed no key: " + key);
    }
    return new ServedData(jar, dir, key);
  }

  /**
   * A data directory served by {@code jar} (with its working directory and environment), called
   * with {@code key}.
   */
  static ServedData attach(EngramJar jar, Path dataDir, String key) {
    return new ServedData(jar, dataDir, key);
  }

  /** Starts {@code engram serve --port 0} and waits until it listens. */
  void start() throws IOException, InterruptedException {
    if (running != null && running.process().isAlive()) {
      throw new IllegalStateException("already running");
    }
    running =
        jar.start("serve", "--port", "0", "--data-dir", dataDir.toString(), "--embedder", EMBEDDER);
    String line = running.awaitLine(LISTENING, Duration.ofMinutes(2));
    base = "http://" + line.substring(LISTENING.length()).strip();
  }

  /** The running server. */
  EngramJar.Running running() {
    return running;
  }

  /** SIGKILL (on Linux {@link Process#destroyForcibly()} sends it); waits until it is gone. */
  void kill() throws InterruptedException {
    running.process().destroyForcibly().waitFor();
  }

  /** Stops the server if it still runs. */
  void close() throws InterruptedException {
    if (running != null) {
      running.close();
    }
  }

  /** An HTTP reply. */
  record Reply(int status, JsonNode json, String body) {}

  /**
   * Sends a request with the key; returns the reply.
   *
   * @throws IOException if the server cannot be reached or the connection breaks (it was killed)
   */
  Reply call(String method, String path, JsonNode body) throws IOException, InterruptedException {
    return callAs(key, method, path, body);
  }

  /** Like {@link #call} with another key. */
  Reply callAs(String apiKey, String method, String path, JsonNode body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(60))
            .header("Authorization", "Token " + apiKey);
    if (body != null) {
      b.header("Content-Type", "application/json")
          .method(
              method,
              HttpRequest.BodyPublishers.ofString(
                  JSON.writeValueAsString(body), StandardCharsets.UTF_8));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpResponse<String> r =
        http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    JsonNode json;
    try {
      json = JSON.readTree(r.body());
    } catch (IOException notJson) {
      json = null;
    }
    return new Reply(r.statusCode(), json, r.body());
  }

  /**
   * Like {@link #call} for a server that must be up: a failed call or another status fails the
   * test.
   */
  JsonNode expect(String method, String path, JsonNode body, int status)
      throws InterruptedException {
    try {
      Reply r = call(method, path, body);
      if (r.status() != status || r.json() == null) {
        throw new AssertionError(
            method + " " + path + " -> " + r.status() + " (expected " + status + "): " + r.body());
      }
      return r.json();
    } catch (IOException e) {
      throw new AssertionError(method + " " + path + " failed: " + e, e);
    }
  }

  /** Every memory of a user, read through the listing (the record). */
  List<JsonNode> listAll(String user) throws InterruptedException {
    List<JsonNode> out = new ArrayList<>();
    for (int page = 1; ; page++) {
      var body = JSON.createObjectNode();
      body.putObject("filters").put("user_id", user);
      JsonNode p = expect("POST", "/v3/memories/?page=" + page + "&page_size=1000", body, 200);
      p.path("results").forEach(out::add);
      if (p.path("next").isNull() || p.path("results").isEmpty()) {
        return out;
      }
    }
  }

  /** The ids a search in a user's scope returns (the index). */
  List<String> searchIds(String user, String query, int topK) throws InterruptedException {
    var body = JSON.createObjectNode();
    body.put("query", query);
    body.putObject("filters").put("user_id", user);
    body.put("top_k", topK);
    List<String> ids = new ArrayList<>();
    expect("POST", "/v3/memories/search/", body, 200)
        .path("results")
        .forEach(h -> ids.add(h.path("id").asText()));
    return ids;
  }

  /**
   * Waits (up to a minute) until none of the tenant's add events is PENDING or RUNNING: a restarted
   * server resumes the events it had accepted, including those whose reply the kill cut off, and
   * their memories appear meanwhile.
   */
  void awaitEventsFinished() throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      List<String> unfinished = new ArrayList<>();
      for (int page = 1; ; page++) {
        JsonNode o = expect("GET", "/v1/events/?page=" + page + "&page_size=1000", null, 200);
        for (JsonNode e : o.path("results")) {
          String status = e.path("status").asText();
          if (!status.equals("SUCCEEDED") && !status.equals("FAILED")) {
            unfinished.add(e.path("id").asText() + " " + status);
          }
        }
        if (o.path("next").isNull() || o.path("next").isMissingNode()) {
          break;
        }
      }
      if (unfinished.isEmpty()) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "events still unfinished a minute after the restart: " + unfinished);
      }
      Thread.sleep(50);
    }
  }

  /** Polls an add event until it is SUCCEEDED or FAILED (within a minute); returns it. */
  JsonNode awaitEvent(String eventId) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    long pause = 10;
    while (System.nanoTime() < deadline) {
      JsonNode e = expect("GET", "/v1/event/" + eventId + "/", null, 200);
      String status = e.path("status").asText();
      if (status.equals("SUCCEEDED") || status.equals("FAILED")) {
        return e;
      }
      Thread.sleep(pause);
      pause = Math.min(pause * 2, 200);
    }
    throw new AssertionError(
        "event " + eventId + " did not finish within a minute after the restart");
  }
}

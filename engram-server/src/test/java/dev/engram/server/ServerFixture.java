package dev.engram.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.json.MemoryJson;
import dev.engram.server.auth.KeyRole;
import dev.engram.server.auth.NewApiKey;
import dev.engram.server.store.ServerDatabase;
import dev.engram.server.store.SqliteAddEventStore;
import dev.engram.server.store.SqliteApiKeyStore;
import dev.engram.testing.HashEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A real server for tests: embedded storage (SQLite + Lucene) in a directory, the hash embedder,
 * server.db keys and events, Jetty on 127.0.0.1 at a free port; plus a small JDK HTTP client.
 */
public final class ServerFixture implements AutoCloseable {
  public final Path dir;
  public final Memory memory;
  public final ServerDatabase db;
  public final SqliteApiKeyStore keys;
  public final SqliteAddEventStore events;
  public final EngramServer server;
  public final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public ServerFixture(Path dir) {
    this(dir, ServerSettings.builder().port(0).build());
  }

  public ServerFixture(Path dir, ServerSettings settings) {
    this(dir, settings, Clock.systemUTC(), UnaryOperator.identity());
  }

  /**
   * A server whose clock is {@code serverClock} (request times, rate-limit windows, event times)
   * over an engine built on embedded storage and the hash embedder, then changed by {@code engine}
   * (e.g. graph memory on, another inference, the engine's clock).
   */
  public ServerFixture(
      Path dir, ServerSettings settings, Clock serverClock, UnaryOperator<Engram.Builder> engine) {
    this(dir, settings, serverClock, System::nanoTime, engine);
  }

  /**
   * As above, with {@code ticker} as the server's monotonic time (the key cache's entries' age).
   */
  public ServerFixture(
      Path dir,
      ServerSettings settings,
      Clock serverClock,
      LongSupplier ticker,
      UnaryOperator<Engram.Builder> engine) {
    this.dir = dir;
    HashEmbedder embedder = new HashEmbedder();
    this.memory =
        engine
            .apply(
                Engram.builder()
                    .storage(EmbeddedStorage.open(dir, embedder.dimension()))
                    .embedder(embedder))
            .build();
    this.db = ServerDatabase.open(dir);
    this.keys = new SqliteApiKeyStore(db, Clock.systemUTC(), false);
    this.events = new SqliteAddEventStore(db, false);
    this.server =
        EngramServer.builder(memory)
            .settings(settings)
            .keys(keys)
            .events(events)
            .clock(serverClock)
            .ticker(ticker)
            .build()
            .start();
  }

  public String base() {
    return "http://127.0.0.1:" + server.port();
  }

  public NewApiKey key(String tenant, KeyRole role) {
    return keys.create(tenant, role, "test");
  }

  /** A response: status, body text and the body as JSON (null when it is not JSON). */
  public record Response(int status, String body, HttpResponse<String> raw) {
    public JsonNode json() {
      try {
        return MemoryJson.mapper().readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (" + status + "): " + body, e);
      }
    }
  }

  public Response call(String method, String path, String key, String jsonBody) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(60));
    if (key != null) {
      b.header("Authorization", "Token " + key);
    }
    if (jsonBody != null) {
      b.header("Content-Type", "application/json");
      b.method(method, HttpRequest.BodyPublishers.ofString(jsonBody, StandardCharsets.UTF_8));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return send(b.build());
  }

  /**
   * A request with raw bytes and chosen headers (name, value pairs); no Content-Type unless given;
   * a null body sends none.
   */
  public Response raw(String method, String path, byte[] body, String... headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base() + path)).timeout(Duration.ofSeconds(60));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    return send(b.build());
  }

  public Response send(HttpRequest request) {
    try {
      HttpResponse<String> r =
          http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Response(r.statusCode(), r.body(), r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Polls an add event until it is finished; returns it. */
  public JsonNode awaitEvent(String key, String eventId) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      Response r = call("GET", "/v1/event/" + eventId + "/", key, null);
      if (r.status() != 200) {
        throw new AssertionError("event " + eventId + ": " + r.status() + " " + r.body());
      }
      String status = r.json().path("status").asText();
      if (status.equals("SUCCEEDED") || status.equals("FAILED")) {
        return r.json();
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError("event " + eventId + " did not finish in 60 s");
  }

  @Override
  public void close() {
    server.close();
    events.close();
    keys.close();
    db.close();
    memory.close();
  }
}

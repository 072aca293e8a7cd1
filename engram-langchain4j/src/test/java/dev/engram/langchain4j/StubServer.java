package dev.engram.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A provider stand-in on 127.0.0.1 (random port): records every request and answers with the
 * scripted responses in order. A {@link #hang()} response holds the connection open until the stub
 * is closed, to drive client timeouts.
 */
final class StubServer implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  /** One request as received; header names are lower case. */
  record Recorded(String method, String path, Map<String, String> headers, String body) {
    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private record Reply(int status, String body, boolean hang) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Deque<Reply> replies = new ArrayDeque<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  private StubServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  static StubServer start() {
    try {
      return new StubServer();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:port} plus {@code path}. */
  String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** Queues a JSON answer. */
  synchronized StubServer reply(int status, String body) {
    replies.add(new Reply(status, body, false));
    return this;
  }

  /** Queues an answer that never comes (until {@link #close}). */
  synchronized StubServer hang() {
    replies.add(new Reply(0, "", true));
    return this;
  }

  List<Recorded> requests() {
    return new ArrayList<>(requests);
  }

  /** The only request received. */
  Recorded single() {
    if (requests.size() != 1) {
      throw new AssertionError(
          "expected exactly one request, got " + requests.size() + ": " + requests);
    }
    return requests.get(0);
  }

  private void handle(HttpExchange ex) throws IOException {
    Map<String, String> headers = new TreeMap<>();
    ex.getRequestHeaders()
        .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    requests.add(new Recorded(ex.getRequestMethod(), ex.getRequestURI().getPath(), headers, body));
    Reply reply;
    synchronized (this) {
      reply =
          replies.isEmpty()
              ? new Reply(500, "{\"error\":\"no scripted reply\"}", false)
              : replies.poll();
    }
    if (reply.hang()) {
      try {
        closed.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      ex.close();
      return;
    }
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json");
    ex.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}

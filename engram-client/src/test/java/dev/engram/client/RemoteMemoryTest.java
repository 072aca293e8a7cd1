package dev.engram.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.LanguageModelException;
import dev.engram.Memory;
import dev.engram.MemoryNotFoundException;
import dev.engram.Message;
import dev.engram.Scope;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.StorageException;
import dev.engram.ValidationException;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.extract.OfflineGraphExtractor;
import dev.engram.graph.TimeView;
import dev.engram.server.auth.KeyRole;
import dev.engram.testing.HashEmbedder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the contract suite does not cover: the retry policy against a scripted HTTP endpoint on
 * 127.0.0.1 (a real JDK server answering prepared replies), errors and roles against a real {@code
 * engram serve}, the graph routes compared with the embedded memory they serve, and tenancy by key.
 */
class RemoteMemoryTest {
  @TempDir Path dir;

  /** One prepared reply: status, Retry-After header (or null) and body. */
  record Prepared(int status, String retryAfter, String body) {}

  /**
   * A JDK HTTP server on 127.0.0.1 that answers the prepared replies in order and counts requests.
   */
  static final class ScriptedEndpoint implements AutoCloseable {
    final HttpServer server;
    final Deque<Prepared> replies = new ArrayDeque<>();
    final List<String> requests = new ArrayList<>();

    ScriptedEndpoint(List<Prepared> script) throws IOException {
      replies.addAll(script);
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext(
          "/",
          exchange -> {
            synchronized (this) {
              requests.add(
                  exchange.getRequestMethod()
                      + " "
                      + exchange.getRequestURI()
                      + " "
                      + exchange.getRequestHeaders().getFirst("Authorization"));
            }
            Prepared p =
                replies.isEmpty()
                    ? new Prepared(500, null, "{\"error\":\"no more replies\"}")
                    : replies.poll();
            if (p.retryAfter() != null) {
              exchange.getResponseHeaders().add("Retry-After", p.retryAfter());
            }
            byte[] b = p.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(p.status(), b.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(b);
            }
          });
      server.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  private static final String SEARCH_OK =
      "{\"results\": [{\"id\": \"m1\", \"memory\": \"likes tea\", \"hash\": \"h\","
          + " \"metadata\": null, \"score\": 0.5, \"created_at\": \"2024-05-01T10:00:00Z\","
          + " \"updated_at\": \"2024-05-01T10:00:00Z\", \"user_id\": \"alice\"}]}";

  @Test
  void retriesHonourRetryAfterThenBackOffExponentially() throws Exception {
    List<Duration> waits = new ArrayList<>();
    try (ScriptedEndpoint e =
        new ScriptedEndpoint(
            List.of(
                new Prepared(429, "2", "{\"error\": \"rate limited\", \"detail\": \"key\"}"),
                new Prepared(
                    503,
                    null,
                    "{\"error\": \"storage unavailable: busy\", \"detail\": \"storage\"}"),
                new Prepared(
                    503,
                    "Wed, 21 Oct 2015 07:28:00 GMT",
                    "{\"error\": \"x\", \"detail\": \"storage\"}"),
                new Prepared(200, null, SEARCH_OK)))) {
      RemoteMemory m =
          EngramClient.builder()
              .baseUrl(e.url())
              .apiKey("eng_secret")
              .maxRetries(3)
              .initialBackoff(Duration.ofMillis(100))
              .clock(Clock.fixed(Instant.parse("2015-10-21T07:28:00Z"), java.time.ZoneOffset.UTC))
              .sleeper(waits::add)
              .build();

      SearchResult r = m.search(SearchRequest.builder(Scope.user("alice"), "tea").build());

      assertThat(r.hits())
          .singleElement()
          .satisfies(
              h -> {
                assertThat(h.memory().text()).isEqualTo("likes tea");
                assertThat(h.score()).isEqualTo(0.5);
              });
      // Retry-After in seconds, then the backoff (100 ms doubled once: the first wait counted),
      // then an HTTP date
      // that is now (no wait).
      assertThat(waits)
          .containsExactly(Duration.ofSeconds(2), Duration.ofMillis(200), Duration.ZERO);
      assertThat(e.requests)
          .hasSize(4)
          .allSatisfy(
              x ->
                  assertThat(x)
                      .startsWith("POST /v3/memories/search/")
                      .endsWith("Token eng_secret"));
      m.close();
    }
  }

  @Test
  void exhaustedRetriesGiveTheTypedError() throws Exception {
    List<Duration> waits = new ArrayList<>();
    String model =
        "{\"error\": \"the language model provider failed (rate_limited): slow down\","
            + " \"detail\": \"model\"}";
    String storage = "{\"error\": \"storage unavailable: disk\", \"detail\": \"storage\"}";
    try (ScriptedEndpoint e =
        new ScriptedEndpoint(
            List.of(
                new Prepared(503, "1", model),
                new Prepared(503, null, model),
                new Prepared(503, "100", storage),
                new Prepared(503, null, storage)))) {
      RemoteMemory m =
          EngramClient.builder()
              .baseUrl(e.url())
              .apiKey("k")
              .maxRetries(1)
              .maxBackoff(Duration.ofSeconds(30))
              .sleeper(waits::add)
              .build();
      assertThatThrownBy(() -> m.add(Scope.user("alice"), "hello"))
          .isInstanceOfSatisfying(
              LanguageModelException.class,
              x -> {
                assertThat(x.kind()).isEqualTo(LanguageModelException.Kind.RATE_LIMITED);
                assertThat(x.getMessage()).contains("slow down");
              });
      assertThat(waits).containsExactly(Duration.ofSeconds(1));
      // a Retry-After of 100 s is capped by maxBackoff; the storage error after the last retry is
      // final
      waits.clear();
      RemoteMemory n =
          EngramClient.builder()
              .baseUrl(e.url())
              .apiKey("k")
              .maxRetries(1)
              .maxBackoff(Duration.ofSeconds(30))
              .sleeper(waits::add)
              .build();
      assertThatThrownBy(() -> n.add(Scope.user("alice"), "hello"))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("disk");
      assertThat(waits).containsExactly(Duration.ofSeconds(30));
    }
  }

  @Test
  void anUnreachableServerIsAStorageFailureAfterRetries() throws Exception {
    String url;
    try (ScriptedEndpoint e = new ScriptedEndpoint(List.of())) {
      url = e.url();
    }
    List<Duration> waits = new ArrayList<>();
    RemoteMemory m =
        EngramClient.builder().baseUrl(url).apiKey("k").maxRetries(2).sleeper(waits::add).build();
    assertThatThrownBy(() -> m.get("some-id"))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("unreachable")
        .hasMessageNotContaining("k\"");
    assertThat(waits).hasSize(2);
  }

  @Test
  void badSettingsAreRefusedWithTheField() {
    assertThatThrownBy(() -> EngramClient.builder().baseUrl("ftp://x"))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("base_url"));
    assertThatThrownBy(() -> EngramClient.builder().baseUrl("http://127.0.0.1:1").build())
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("api_key"));
    assertThatThrownBy(() -> EngramClient.builder().maxRetries(11))
        .isInstanceOfSatisfying(
            ValidationException.class, e -> assertThat(e.field()).isEqualTo("max_retries"));
  }

  private ServedMemory served(boolean graph) {
    HashEmbedder embedder = new HashEmbedder();
    Engram.Builder b =
        Engram.builder()
            .storage(EmbeddedStorage.open(dir, embedder.dimension()))
            .embedder(embedder);
    if (graph) {
      b.graph(OfflineGraphExtractor.create());
    }
    return new ServedMemory(b.build(), dir, Clock.systemUTC());
  }

  @Test
  void graphRoutesAnswerWhatTheEmbeddedMemoryAnswers() {
    try (ServedMemory s = served(true)) {
      Scope alice = Scope.user("alice");
      String id =
          s.add(
                  AddRequest.builder(alice)
                      .message(Message.user("Alice works with Bob at Acme").withName("Alice"))
                      .infer(false)
                      .build())
              .events()
              .get(0)
              .id();
      s.add(
          AddRequest.builder(alice)
              .message(Message.user("Bob lives in Lisbon").withName("Alice"))
              .infer(false)
              .build());
      Instant now = Instant.now();

      assertThat(s.remote.entityRelations(alice, "bob", TimeView.CURRENT))
          .isNotEmpty()
          .isEqualTo(s.embedded.entityRelations(alice, "bob", TimeView.CURRENT));
      assertThat(s.remote.graphAround(alice, "Acme", 2, TimeView.asOf(now)))
          .isEqualTo(s.embedded.graphAround(alice, "Acme", 2, TimeView.asOf(now)));
      assertThat(s.remote.memoryRelations(id, TimeView.ALL))
          .isNotEmpty()
          .isEqualTo(s.embedded.memoryRelations(id, TimeView.ALL));
      SearchRequest q = SearchRequest.builder(alice, "Who does Alice work with?").build();
      assertThat(s.remote.search(q, TimeView.asOf(now)).relations())
          .isNotEmpty()
          .isEqualTo(s.embedded.search(q, TimeView.asOf(now)).relations());
      assertThat(s.remote.memoryRelations("00000000-0000-0000-0000-000000000000", TimeView.ALL))
          .isEmpty();

      assertThat(s.remote.deleteEntity(alice, "Lisbon")).isEqualTo(1);
      assertThat(s.embedded.entityRelations(alice, "Lisbon", TimeView.ALL)).isEmpty();
      assertThat(s.remote.entities())
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.id()).isEqualTo("alice");
                assertThat(e.memories()).isEqualTo(2);
              });
      assertThat(s.remote.status()).isEqualTo(s.embedded.status());
    }
  }

  @Test
  void theTenantIsTheKeysAndRolesAreEnforced() {
    try (ServedMemory s = served(false)) {
      Memory acme = s.client("acme", KeyRole.MEMBER);
      assertThat(acme.tenant()).isEqualTo("acme");
      assertThat(acme.forTenant(" acme ")).isSameAs(acme);
      assertThatThrownBy(() -> acme.forTenant("default"))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("'acme'");
      String id =
          acme.add(AddRequest.builder(Scope.user("alice")).user("acme secret").infer(false).build())
              .events()
              .get(0)
              .id();
      assertThat(s.remote.get(id)).isEmpty();
      assertThatThrownBy(() -> s.remote.delete(id))
          .isInstanceOf(MemoryNotFoundException.class)
          .hasMessageContaining(id);
      assertThatThrownBy(acme::reset)
          .isInstanceOfSatisfying(
              RemoteCallException.class, e -> assertThat(e.status()).isEqualTo(403));
      assertThat(acme.get(id)).isPresent();
      assertThatThrownBy(() -> acme.exportRecords(dev.engram.ExportRequest.wholeTenant()))
          .isInstanceOfSatisfying(
              RemoteCallException.class, e -> assertThat(e.status()).isEqualTo(403));
      assertThatThrownBy(() -> acme.importRecords(List.of()))
          .isInstanceOfSatisfying(
              RemoteCallException.class, e -> assertThat(e.status()).isEqualTo(403));
      Memory acmeAdmin = s.client("acme", KeyRole.ADMIN);
      assertThat(acmeAdmin.exportRecords(dev.engram.ExportRequest.wholeTenant()).toList())
          .extracting(dev.engram.MemoryRecord::id)
          .containsExactly(id);
      assertThat(s.remote.exportRecords(dev.engram.ExportRequest.wholeTenant()).toList()).isEmpty();
      acme.close();
      assertThatThrownBy(() -> acme.get(id)).isInstanceOf(IllegalStateException.class);
      // a wrong address is an error, not an unknown memory
      RemoteMemory lost =
          EngramClient.builder().baseUrl(s.baseUrl() + "/nowhere").apiKey("k").build();
      assertThatThrownBy(() -> lost.get(id))
          .isInstanceOfSatisfying(
              RemoteCallException.class, e -> assertThat(e.status()).isEqualTo(404));
    }
  }
}

package dev.engram.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.LanguageModelException;
import dev.engram.ListRequest;
import dev.engram.Scope;
import dev.engram.pipeline.AdditiveInference;
import dev.engram.pipeline.ModelCaller;
import dev.engram.pipeline.PipelineOptions;
import dev.engram.pipeline.RetryPolicy;
import dev.engram.server.auth.KeyRole;
import dev.engram.spi.Embedder;
import dev.engram.spi.ForwardingEmbedder;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.ScriptedLanguageModel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mem0's asynchronous add on a real server: the PENDING answer, the event's shape while and after
 * it runs, the event listing, a FAILED event with its reason (a scripted language model that
 * refuses every call), and the message-time rule: a message without a time was said when the server
 * received it (the server's clock).
 */
class AddEventContractTest {
  static final Instant NOW = Instant.parse("2026-03-04T05:06:07Z");

  @TempDir Path dir;
  ServerFixture f;

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  private ServerFixture verbatimServer() {
    return new ServerFixture(
        dir, ServerSettings.builder().port(0).build(), new MutableClock(NOW), b -> b);
  }

  @Test
  void acceptedAddIsPendingThenSucceededWithTheClientFields() {
    f = verbatimServer();
    String key = f.key("acme", KeyRole.MEMBER).secret();
    var accepted =
        f.call(
            "POST",
            "/v3/memories/add/",
            key,
            "{\"messages\": [{\"role\": \"user\", \"content\":"
                + " \"I moved to Lisbon\"}], \"user_id\": \"alice\", \"infer\": false, \"version\": \"v2\","
                + " \"output_format\": \"v1.1\", \"enable_graph\": false, \"custom_categories\": [{\"x\": \"y\"}]}");
    assertThat(accepted.status()).isEqualTo(200);
    assertThat(accepted.json().path("status").asText()).isEqualTo("PENDING");
    String eventId = accepted.json().path("event_id").asText();
    assertThat(eventId).matches("[0-9a-f-]{36}");

    JsonNode e = f.awaitEvent(key, eventId);
    assertThat(e.path("id").asText()).isEqualTo(eventId);
    assertThat(e.path("event_type").asText()).isEqualTo("ADD");
    assertThat(e.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(e.path("error").isNull()).isTrue();
    assertThat(e.path("created_at").asText()).isEqualTo(NOW.toString());
    assertThat(e.path("started_at").isTextual()).isTrue();
    assertThat(e.path("completed_at").isTextual()).isTrue();
    assertThat(e.path("updated_at").isTextual()).isTrue();
    assertThat(e.path("latency").isNumber()).isTrue();
    JsonNode r = e.path("results").get(0);
    assertThat(r.path("data").path("memory").asText()).isEqualTo("I moved to Lisbon");
    assertThat(r.path("event").asText()).isEqualTo("ADD");
    assertThat(r.path("user_id").asText()).isEqualTo("alice");
    String id = r.path("id").asText();
    var stored = f.memory.forTenant("acme").get(id).orElseThrow();
    assertThat(stored.text()).isEqualTo("I moved to Lisbon");
    assertThat(stored.sourceIds()).containsExactly(eventId + ":0");

    var unknown = f.call("GET", "/v1/event/00000000-0000-0000-0000-000000000000/", key, null);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().path("detail").asText()).isEqualTo("event");
  }

  @Test
  void asyncModeFalseAnswersTheFinishedEventAndEventsAreListedNewestFirst() {
    f = verbatimServer();
    String key = f.key("acme", KeyRole.MEMBER).secret();
    String[] ids = new String[3];
    for (int i = 0; i < 3; i++) {
      JsonNode done =
          f.call(
                  "POST",
                  "/v3/memories/add/",
                  key,
                  "{\"messages\": \"fact "
                      + i
                      + "\", \"user_id\": \"alice\", \"infer\": false, \"async_mode\": false}")
              .json();
      assertThat(done.path("status").asText()).isEqualTo("SUCCEEDED");
      assertThat(done.path("results").get(0).path("data").path("memory").asText())
          .isEqualTo("fact " + i);
      ids[i] = done.path("id").asText();
      // The answer is built without reading the event back: it must be the event as stored, field
      // for field.
      assertThat(done).isEqualTo(f.call("GET", "/v1/event/" + ids[i] + "/", key, null).json());
    }
    JsonNode page = f.call("GET", "/v1/events/?page=1&page_size=2", key, null).json();
    assertThat(page.path("count").asInt()).isEqualTo(3);
    assertThat(page.path("results")).hasSize(2);
    assertThat(page.path("next").asText()).endsWith("/v1/events/?page=2&page_size=2");
    assertThat(page.path("previous").isNull()).isTrue();
    JsonNode last = f.call("GET", "/v1/events/?page=2&page_size=2", key, null).json();
    assertThat(last.path("results")).hasSize(1);
    assertThat(last.path("next").isNull()).isTrue();
    java.util.Set<String> listed = new java.util.HashSet<>();
    page.path("results").forEach(x -> listed.add(x.path("id").asText()));
    last.path("results").forEach(x -> listed.add(x.path("id").asText()));
    assertThat(listed).containsExactlyInAnyOrder(ids);
    JsonNode past = f.call("GET", "/v1/events/?page=5&page_size=2", key, null).json();
    assertThat(past.path("results")).isEmpty();
    String other = f.key("globex", KeyRole.ADMIN).secret();
    assertThat(f.call("GET", "/v1/events/", other, null).json().path("count").asInt()).isZero();
    assertThat(f.call("GET", "/v1/event/" + ids[0] + "/", other, null).status()).isEqualTo(404);
  }

  /**
   * A synchronous add is written to the event store only once it has finished: while the engine
   * runs it (here: embeds its memory) no event of it exists, so a kill then leaves no event that a
   * restart would run again behind the back of a client that got no answer.
   */
  @Test
  void aSynchronousAddIsRecordedOnlyOnceItHasFinished() {
    List<Long> eventsWhileEmbedding = new CopyOnWriteArrayList<>();
    ServerFixture[] server = new ServerFixture[1];
    Embedder observing =
        new ForwardingEmbedder(new HashEmbedder()) {
          @Override
          public List<float[]> embedDocuments(List<String> texts) {
            if (server[0] != null) {
              eventsWhileEmbedding.add(server[0].events.count("acme"));
            }
            return delegate.embedDocuments(texts);
          }
        };
    f =
        new ServerFixture(
            dir,
            ServerSettings.builder().port(0).build(),
            new MutableClock(NOW),
            b -> b.embedder(observing));
    server[0] = f;
    String key = f.key("acme", KeyRole.MEMBER).secret();
    JsonNode done =
        f.call(
                "POST",
                "/v3/memories/add/",
                key,
                "{\"messages\": \"I moved to Lisbon\", \"user_id\": \"alice\", \"infer\": false,"
                    + " \"async_mode\": false}")
            .json();
    assertThat(done.path("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(eventsWhileEmbedding).as("no event while the add ran").isNotEmpty().containsOnly(0L);
    assertThat(f.events.count("acme")).isEqualTo(1);
    assertThat(f.events.countUnfinished()).isZero();
  }

  @Test
  void aFailingModelMarksTheEventFailedWithTheReasonAndWritesNothing() {
    ScriptedLanguageModel refusing =
        new ScriptedLanguageModel()
            .otherwise(
                p -> {
                  throw new LanguageModelException(
                      LanguageModelException.Kind.AUTHENTICATION,
                      "scripted provider refused the credentials (HTTP 401)");
                });
    f =
        new ServerFixture(
            dir,
            ServerSettings.builder().port(0).build(),
            new MutableClock(NOW),
            b ->
                b.inference(
                    new AdditiveInference(
                        new ModelCaller(refusing, RetryPolicy.none()),
                        PipelineOptions.defaults())));
    String key = f.key("acme", KeyRole.MEMBER).secret();
    String eventId =
        f.call(
                "POST",
                "/v3/memories/add/",
                key,
                "{\"messages\": \"I am allergic to peanuts\", \"user_id\": \"alice\"}")
            .json()
            .path("event_id")
            .asText();
    JsonNode e = f.awaitEvent(key, eventId);
    assertThat(e.path("status").asText()).isEqualTo("FAILED");
    assertThat(e.path("error").asText()).contains("scripted provider refused the credentials");
    assertThat(e.path("results")).isEmpty();
    assertThat(e.path("completed_at").isTextual()).isTrue();
    assertThat(refusing.calls()).isGreaterThanOrEqualTo(1);
    assertThat(f.memory.forTenant("acme").list(ListRequest.of(Scope.user("alice"))).items())
        .isEmpty();

    var sync =
        f.call(
            "POST",
            "/v3/memories/add/",
            key,
            "{\"messages\": \"I am allergic to cats\", \"user_id\": \"alice\", \"async_mode\": false}");
    assertThat(sync.status()).isEqualTo(502);
    assertThat(sync.json().path("detail").asText()).isEqualTo("model");
    assertThat(sync.json().path("error").asText()).contains("authentication");
    var legacy =
        f.call(
            "POST",
            "/v1/memories/",
            key,
            "{\"messages\": \"I am allergic to dust\", \"user_id\": \"a\"}");
    assertThat(legacy.status()).isEqualTo(502);
    JsonNode events = f.call("GET", "/v1/events/", key, null).json();
    assertThat(events.path("count").asInt())
        .as("the async add, the add with async_mode false and the legacy add")
        .isEqualTo(3);
    events.path("results").forEach(x -> assertThat(x.path("status").asText()).isEqualTo("FAILED"));
    assertThat(f.memory.forTenant("acme").entities()).isEmpty();
  }

  @Test
  void aMessageWithoutATimeWasSaidWhenTheServerReceivedIt() {
    f = verbatimServer();
    String key = f.key("acme", KeyRole.MEMBER).secret();
    var acme = f.memory.forTenant("acme");
    String asyncId =
        f.awaitEvent(
                key,
                f.call(
                        "POST",
                        "/v3/memories/add/",
                        key,
                        "{\"messages\": \"Yesterday I adopted a puppy\", \"user_id\": \"alice\", \"infer\": false}")
                    .json()
                    .path("event_id")
                    .asText())
            .path("results")
            .get(0)
            .path("id")
            .asText();
    assertThat(acme.get(asyncId).orElseThrow().eventTime()).isEqualTo(NOW);

    String legacyId =
        f.call(
                "POST",
                "/v1/memories/",
                key,
                "{\"messages\": [{\"role\": \"user\", \"content\": \"Today I ran 5 km\"}], \"user_id\": \"alice\","
                    + " \"infer\": false}")
            .json()
            .path("results")
            .get(0)
            .path("id")
            .asText();
    assertThat(acme.get(legacyId).orElseThrow().eventTime()).isEqualTo(NOW);

    String selfHostedId =
        f.raw(
                "POST",
                "/memories",
                ("{\"messages\": [{\"role\": \"user\", \"content\":"
                        + " \"Tomorrow I fly to Rome\"}], \"user_id\": \"alice\", \"infer\": false}")
                    .getBytes(),
                "X-API-Key",
                key,
                "Content-Type",
                "application/json")
            .json()
            .path("results")
            .get(0)
            .path("id")
            .asText();
    assertThat(acme.get(selfHostedId).orElseThrow().eventTime()).isEqualTo(NOW);

    JsonNode got = f.call("GET", "/v1/memories/" + selfHostedId + "/", key, null).json();
    assertThat(got.path("event_time").asText()).isEqualTo(NOW.toString());

    String stamped =
        f.call(
                "POST",
                "/v1/memories/",
                key,
                "{\"messages\": \"Last week I met Sam\","
                    + " \"user_id\": \"alice\", \"infer\": false, \"timestamp\": 1700000000}")
            .json()
            .path("results")
            .get(0)
            .path("id")
            .asText();
    assertThat(acme.get(stamped).orElseThrow().eventTime())
        .isEqualTo(Instant.ofEpochSecond(1_700_000_000L));
  }
}

package dev.engram.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.EventType;
import dev.engram.ListRequest;
import dev.engram.Memory;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.SearchRequest;
import dev.engram.embedded.EmbeddedStorage;
import dev.engram.engine.VerbatimInference;
import dev.engram.filter.Filter;
import dev.engram.filter.Mem0Filters;
import dev.engram.spi.Embedder;
import dev.engram.spi.Storage;
import dev.engram.testing.MemoryContractTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The whole storage contract through HTTP: every test of {@link MemoryContractTest} runs against a
 * {@link RemoteMemory} talking to a real {@code engram serve} on 127.0.0.1, which serves an
 * embedded memory (SQLite + Lucene) opened by the contract's fixture with its clock and
 * customizations (the server runs on the same clock). The contract's {@code forTenant} views are
 * clients holding a key of that tenant ({@link ServedMemory}).
 *
 * <p>Three tests of the contract are overridden here, because what they check differs by design
 * over the server, and assert it in the server's terms: the server gives a message without a time
 * the time the request was received (so {@code event_time} is never empty) and gives every message
 * without a source id the id {@code <event>:<index>} of the add event that carried it.
 */
class RemoteMemoryContractTest extends MemoryContractTest {
  @Override
  protected Storage openStorage(Path dir, int dimension) {
    return EmbeddedStorage.open(dir, dimension);
  }

  @Override
  protected void damageIndex(Path dir) {
    try (Stream<Path> paths = Files.walk(dir.resolve(EmbeddedStorage.INDEX_DIRECTORY))) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The contract's embedded memory, served, and seen through a client. */
  @Override
  protected Memory open(Embedder embedder, Consumer<dev.engram.Engram.Builder> customizer) {
    Memory embedded = super.open(embedder, customizer);
    return new ServedMemory(embedded, dir, clock);
  }

  /** Over the server, an untimed message gets the request's time and the add event's source id. */
  @Test
  @Override
  protected void addOneMessageVerbatimStoresIt() {
    Instant before = clock.peek();
    AddResult r =
        memory.add(AddRequest.builder(ALICE).user("  I moved to Lisbon  ").infer(false).build());

    MemoryEvent e = r.events().get(0);
    assertThat(e.event()).isEqualTo(EventType.ADD);
    assertThat(e.memory()).isEqualTo("I moved to Lisbon");
    assertThat(e.role()).isEqualTo(Role.USER);
    MemoryItem m = memory.get(e.id()).orElseThrow();
    assertThat(m.text()).isEqualTo("I moved to Lisbon");
    assertThat(m.userId()).isEqualTo("alice");
    assertThat(m.metadata()).isEmpty();
    assertThat(m.eventTime()).isAfterOrEqualTo(before).isBeforeOrEqualTo(m.createdAt());
    assertThat(m.sourceIds()).singleElement().asString().endsWith(":0");
    assertThat(memory.history(e.id())).extracting(h -> h.event()).containsExactly(EventType.ADD);
  }

  /**
   * Over the server, speakers, times and given sources are kept; a message without a source gets
   * the event's.
   */
  @Test
  @Override
  protected void addMessagesVerbatimSkipsSystemAndKeepsSpeakersTimesAndSources() {
    Instant requestTime = Instant.parse("2023-05-08T13:56:00Z");
    Instant messageTime = Instant.parse("2023-05-08T14:00:00Z");
    AddResult r =
        memory.add(
            AddRequest.builder(ALICE.withAgent("coach"))
                .message(Message.system("You are a helpful coach"))
                .message(
                    Message.user("I ran a marathon")
                        .withName("Caroline")
                        .withSourceId("D1:3")
                        .withTimestamp(messageTime))
                .message(Message.assistant("Congratulations on the marathon").withName("Coach"))
                .timestamp(requestTime)
                .infer(false)
                .build());

    assertThat(r.events()).extracting(MemoryEvent::actorId).containsExactly("Caroline", "Coach");
    MemoryItem user = memory.get(r.events().get(0).id()).orElseThrow();
    assertThat(user.eventTime()).isEqualTo(messageTime);
    assertThat(user.sourceIds()).containsExactly("D1:3");
    assertThat(user.agentId()).isEqualTo("coach");
    MemoryItem assistant = memory.get(r.events().get(1).id()).orElseThrow();
    assertThat(assistant.eventTime()).isEqualTo(requestTime);
    assertThat(assistant.sourceIds()).singleElement().asString().endsWith(":2");
  }

  /**
   * Over the server, with every message timed (the server dates an untimed one, so event_time
   * filters see it).
   */
  @Test
  @Override
  protected void filtersApplyToSearchAndListAlike() {
    String m1 =
        add(
            Message.user("I cook pasta on Sundays")
                .withName("Caroline")
                .withTimestamp(Instant.parse("2023-01-10T09:00:00Z")),
            Map.of("topic", "food", "stars", 1, "tags", List.of("italian", "home")));
    String m2 =
        add(
            Message.user("We flew to Tokyo")
                .withName("Melanie")
                .withTimestamp(Instant.parse("2023-06-01T00:00:00Z")),
            Map.of("topic", "travel", "stars", 3));
    String m3 =
        add(
            Message.assistant("Try the ramen place near the station")
                .withName("Bot")
                .withTimestamp(Instant.parse("2023-03-03T00:00:00Z")),
            Map.of("topic", "food", "stars", 5, "tags", List.of("japanese")));
    String m4 =
        add(
            Message.user("Nothing special happened")
                .withTimestamp(Instant.parse("2023-09-09T12:00:00Z")),
            Map.of("user_id_note", "x"));
    Instant created2 = memory.get(m2).orElseThrow().createdAt();

    assertFilter("{\"topic\": \"food\"}", m1, m3);
    assertFilter("{\"stars\": {\"gt\": 1, \"lt\": 5}}", m2);
    assertFilter("{\"topic\": {\"in\": [\"travel\", \"music\"]}}", m2);
    assertFilter("{\"topic\": {\"nin\": [\"food\"]}}", m2, m4);
    assertFilter("{\"tags\": \"japanese\"}", m3);
    assertFilter("{\"topic\": \"*\"}", m1, m2, m3);
    assertFilter("{\"NOT\": [{\"topic\": \"food\"}]}", m2, m4);
    assertFilter("{\"OR\": [{\"stars\": 1}, {\"topic\": \"travel\"}]}", m1, m2);
    assertFilter("{\"memory\": {\"icontains\": \"TOKYO\"}}", m2);
    assertFilter("{\"role\": \"assistant\"}", m3);
    assertFilter("{\"actor_id\": \"Caroline\"}", m1);
    assertFilter("{\"user_id\": \"alice\", \"topic\": \"travel\"}", m2);
    assertFilter("{\"user_id\": \"bob\"}");
    assertFilter("{\"metadata.role\": \"x\"}");
    assertFilter("{\"event_time\": {\"gte\": \"2023-06-01\"}}", m2, m4);
    assertFilter("{\"event_time\": {\"lt\": \"2023-06-01T00:00:00Z\"}}", m1, m3);
    assertFilter("{\"created_at\": {\"gt\": \"" + created2 + "\"}}", m3, m4);
    assertFilter("{\"topic\": \"sports\"}");
  }

  private String add(Message m, Map<String, Object> metadata) {
    return memory
        .add(AddRequest.builder(ALICE).message(m).metadata(metadata).infer(false).build())
        .events()
        .get(0)
        .id();
  }

  private void assertFilter(String json, String... expected) {
    Filter f = Mem0Filters.parse(json);
    List<String> searched =
        ids(
            memory
                .search(
                    SearchRequest.builder(ALICE, "what happened with food and travel")
                        .filter(f)
                        .topK(100)
                        .build())
                .hits());
    List<String> listed =
        memory.list(ListRequest.of(ALICE).withFilter(f)).items().stream()
            .map(MemoryItem::id)
            .toList();
    assertThat(searched).as("search with %s", json).containsExactlyInAnyOrder(expected);
    assertThat(listed).as("list with %s", json).containsExactlyInAnyOrder(expected);
  }

  @Test
  void aLongListingIsReadInServerPages() {
    memory.close();
    memory = open(b -> b.inference(new VerbatimInference()));
    List<AddRequest> adds = new java.util.ArrayList<>();
    for (int i = 0; i < 1203; i++) {
      adds.add(AddRequest.builder(BOB).user("note " + i).infer(false).build());
    }
    memory.addBatch(adds.subList(0, 600));
    memory.addBatch(adds.subList(600, 1203));
    var page = memory.list(ListRequest.of(BOB).withPage(100, 1500));
    assertThat(page.total()).isEqualTo(1203);
    assertThat(page.offset()).isEqualTo(100);
    assertThat(page.items()).hasSize(1103).doesNotHaveDuplicates();
    assertThat(page.items().get(0).text()).isEqualTo("note 1102");
  }
}

package dev.engram.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.AddResult;
import dev.engram.ChangePipelines;
import dev.engram.EngramException;
import dev.engram.EventType;
import dev.engram.Hashes;
import dev.engram.HistoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.engine.VerbatimInference;
import dev.engram.spi.MemoryInference;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Contract: {@code add} (verbatim and with the default inference), {@code addBatch} and {@code
 * get}.
 */
public abstract class AddContract extends ContractSupport {

  @Test
  protected void addOneMessageVerbatimStoresIt() {
    Instant before = clock.peek();
    AddResult r =
        memory.add(AddRequest.builder(ALICE).user("  I moved to Lisbon  ").infer(false).build());

    assertThat(r.events()).hasSize(1);
    MemoryEvent e = r.events().get(0);
    assertThat(e.event()).isEqualTo(EventType.ADD);
    assertThat(e.memory()).isEqualTo("I moved to Lisbon");
    assertThat(e.previousMemory()).isNull();
    assertThat(e.role()).isEqualTo(Role.USER);
    assertThat(e.actorId()).isNull();

    MemoryItem m = memory.get(e.id()).orElseThrow();
    assertThat(m.id()).isEqualTo(e.id());
    assertThat(m.text()).isEqualTo("I moved to Lisbon");
    assertThat(m.hash()).isEqualTo(Hashes.md5("I moved to Lisbon")).hasSize(32);
    assertThat(m.userId()).isEqualTo("alice");
    assertThat(m.agentId()).isNull();
    assertThat(m.runId()).isNull();
    assertThat(m.role()).isEqualTo(Role.USER);
    assertThat(m.actorId()).isNull();
    assertThat(m.metadata()).isEmpty();
    assertThat(m.sourceIds()).isEmpty();
    assertThat(m.eventTime())
        .as("a message without a time was said when the add was received")
        .isEqualTo(before);
    assertThat(m.expirationDate()).isNull();
    assertThat(m.createdAt()).isAfterOrEqualTo(before).isEqualTo(m.updatedAt());
    assertThat(memory.history(e.id())).extracting(h -> h.event()).containsExactly(EventType.ADD);
  }

  @Test
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

    assertThat(r.events())
        .extracting(
            MemoryEvent::memory, MemoryEvent::event, MemoryEvent::actorId, MemoryEvent::role)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "I ran a marathon", EventType.ADD, "Caroline", Role.USER),
            org.assertj.core.groups.Tuple.tuple(
                "Congratulations on the marathon", EventType.ADD, "Coach", Role.ASSISTANT));
    MemoryItem user = memory.get(r.events().get(0).id()).orElseThrow();
    assertThat(user.actorId()).isEqualTo("Caroline");
    assertThat(user.eventTime()).isEqualTo(messageTime);
    assertThat(user.sourceIds()).containsExactly("D1:3");
    assertThat(user.userId()).isEqualTo("alice");
    assertThat(user.agentId()).isEqualTo("coach");
    MemoryItem assistant = memory.get(r.events().get(1).id()).orElseThrow();
    assertThat(assistant.role()).isEqualTo(Role.ASSISTANT);
    assertThat(assistant.actorId()).isEqualTo("Coach");
    assertThat(assistant.eventTime()).isEqualTo(requestTime);
    assertThat(assistant.sourceIds()).isEmpty();
    assertThat(texts(ALICE))
        .containsExactlyInAnyOrder("I ran a marathon", "Congratulations on the marathon");
  }

  @Test
  void onlySystemMessagesAddNothing() {
    AddResult r =
        memory.add(
            AddRequest.builder(ALICE).message(Message.system("be brief")).infer(false).build());
    assertThat(r.events()).isEmpty();
    assertThat(total(ALICE)).isZero();
  }

  @Test
  void metadataAndExpirationAreStored() {
    Map<String, Object> metadata =
        Map.of(
            "topic",
            "travel",
            "stars",
            4,
            "tags",
            List.of("city", "sea"),
            "nested",
            Map.of("ok", true));
    AddResult r =
        memory.add(
            AddRequest.builder(ALICE)
                .user("Lisbon has great light")
                .metadata(metadata)
                .expiration(TODAY.plusDays(30))
                .infer(false)
                .build());

    MemoryItem m = memory.get(r.events().get(0).id()).orElseThrow();
    assertThat(m.metadata()).containsOnlyKeys("topic", "stars", "tags", "nested");
    assertThat(m.metadata().get("topic")).isEqualTo("travel");
    assertThat(((Number) m.metadata().get("stars")).doubleValue()).isEqualTo(4.0);
    assertThat(m.metadata().get("tags")).isEqualTo(List.of("city", "sea"));
    assertThat(m.metadata().get("nested")).isEqualTo(Map.of("ok", true));
    assertThat(m.expirationDate()).isEqualTo(TODAY.plusDays(30));
  }

  @Test
  void inferByDefaultRunsTheOfflineExtractor() {
    Instant may8 = Instant.parse("2023-05-08T13:56:00Z");
    Message turn =
        new Message(
            Role.USER,
            "Hey Mel! I adopted a puppy yesterday. How are you?",
            "Caroline",
            may8,
            "D1:1");
    AddResult r = memory.add(AddRequest.builder(ALICE).message(turn).build());
    assertThat(r.events())
        .extracting(MemoryEvent::event, MemoryEvent::memory)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                EventType.ADD, "Caroline adopted a puppy yesterday (7 May 2023)."));
    MemoryItem m = memory.get(r.events().get(0).id()).orElseThrow();
    assertThat(m.actorId()).isEqualTo("Caroline");
    assertThat(m.sourceIds()).containsExactly("D1:1");
    assertThat(m.eventTime()).isEqualTo(may8);
    assertThat(memory.history(m.id()))
        .extracting(HistoryEntry::pipeline)
        .containsExactly(ChangePipelines.OFFLINE);
    AddResult again = memory.add(AddRequest.builder(ALICE).message(turn).build());
    assertThat(again.events()).extracting(MemoryEvent::event).containsExactly(EventType.NOOP);
  }

  /**
   * A message without a time, in a request without one, was said when the add was received: the
   * engine clock's instant at the start of the add (read once per add) resolves its relative dates
   * and is its event time.
   */
  @Test
  void aMessageWithoutTimeIsDatedWhenTheAddIsReceived() {
    clock.advance(java.time.Duration.ofDays(40));
    Instant received = clock.peek();
    String yesterday =
        java.time.format.DateTimeFormatter.ofPattern("d MMMM uuuu", java.util.Locale.ENGLISH)
            .format(java.time.LocalDate.ofInstant(received, java.time.ZoneOffset.UTC).minusDays(1));
    AddResult r =
        memory.add(
            AddRequest.builder(BOB)
                .message(Message.user("Yesterday I adopted a puppy called Max").withName("Bob"))
                .build());

    assertThat(r.events())
        .extracting(MemoryEvent::event, MemoryEvent::memory)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                EventType.ADD, "Yesterday (" + yesterday + ") Bob adopted a puppy called Max"));
    assertThat(memory.get(r.events().get(0).id()).orElseThrow().eventTime()).isEqualTo(received);

    Instant givenTime = Instant.parse("2026-12-01T10:00:00Z");
    AddResult timed =
        memory.add(
            AddRequest.builder(BOB)
                .message(Message.user("Yesterday I adopted a kitten called Tom").withName("Bob"))
                .timestamp(givenTime)
                .build());
    assertThat(timed.events())
        .extracting(MemoryEvent::memory)
        .containsExactly("Yesterday (30 November 2026) Bob adopted a kitten called Tom");
    assertThat(memory.get(timed.events().get(0).id()).orElseThrow().eventTime())
        .isEqualTo(givenTime);
  }

  @Test
  void everyUntimedMessageOfOneAddGetsTheSameReceiveTime() {
    Instant own = Instant.parse("2023-01-02T03:04:05Z");
    Instant received = clock.peek();
    AddResult r =
        memory.add(
            AddRequest.builder(ALICE)
                .message(Message.user("I planted tulips"))
                .message(Message.assistant("Tulips need cold winters"))
                .message(Message.user("I repainted the fence").withTimestamp(own))
                .infer(false)
                .build());

    assertThat(r.events())
        .extracting(e -> memory.get(e.id()).orElseThrow().eventTime())
        .containsExactly(received, received, own);
  }

  @Test
  void inferWithVerbatimInferenceTurnsRepeatsIntoNoop() {
    memory.close();
    memory = open(b -> b.inference(new VerbatimInference()));
    AddResult first = memory.add(AddRequest.builder(ALICE).user("I like green tea").build());
    assertThat(first.events()).extracting(MemoryEvent::event).containsExactly(EventType.ADD);
    String id = first.events().get(0).id();

    AddResult again =
        memory.add(
            AddRequest.builder(ALICE).user("I like green tea").user("I also like coffee").build());
    assertThat(again.events())
        .extracting(MemoryEvent::event)
        .containsExactly(EventType.NOOP, EventType.ADD);
    assertThat(again.events().get(0).id()).isEqualTo(id);
    assertThat(again.events().get(0).memory()).isEqualTo("I like green tea");

    AddResult otherScope = memory.add(AddRequest.builder(BOB).user("I like green tea").build());
    assertThat(otherScope.events()).extracting(MemoryEvent::event).containsExactly(EventType.ADD);
    assertThat(texts(ALICE)).containsExactly("I also like coffee", "I like green tea");
    assertThat(memory.history(id))
        .extracting(HistoryEntry::pipeline)
        .containsExactly(ChangePipelines.VERBATIM);
  }

  @Test
  void addBatchCommitsEveryRequest() {
    List<AddResult> results =
        memory.addBatch(
            List.of(
                AddRequest.builder(ALICE).user("first of the batch").infer(false).build(),
                AddRequest.builder(BOB)
                    .user("second of the batch")
                    .user("third of the batch")
                    .infer(false)
                    .build()));

    assertThat(results).hasSize(2);
    assertThat(results.get(0).events())
        .extracting(MemoryEvent::memory)
        .containsExactly("first of the batch");
    assertThat(results.get(1).events())
        .extracting(MemoryEvent::memory)
        .containsExactly("second of the batch", "third of the batch");
    assertThat(texts(ALICE)).containsExactly("first of the batch");
    assertThat(texts(BOB)).containsExactlyInAnyOrder("second of the batch", "third of the batch");
    assertThat(memory.addBatch(List.of())).isEmpty();
  }

  @Test
  void addBatchIsAllOrNothingWhenALaterRequestFails() {
    memory.close();
    MemoryInference failing =
        ctx -> {
          if (ctx.messages().stream().anyMatch(m -> m.content().contains("explode"))) {
            throw new EngramException("the extractor failed");
          }
          return new VerbatimInference().plan(ctx);
        };
    memory = open(b -> b.inference(failing));
    String existing = addVerbatim(ALICE, "already here");
    long before = storedCount();

    assertThatThrownBy(
            () ->
                memory.addBatch(
                    List.of(
                        AddRequest.builder(ALICE).user("planned but never committed").build(),
                        AddRequest.builder(BOB).user("this one will explode").build())))
        .isInstanceOf(EngramException.class)
        .hasMessage("the extractor failed");

    assertThat(storedCount()).isEqualTo(before);
    assertThat(texts(ALICE)).containsExactly("already here");
    assertThat(texts(BOB)).isEmpty();
    assertThat(search(ALICE, "planned committed")).containsExactly(existing);
  }

  @Test
  void getReturnsEmptyForUnknownIdsAndOtherTenants() {
    String id = addVerbatim(ALICE, "a private thought");
    assertThat(memory.get("00000000-0000-0000-0000-000000000000")).isEmpty();
    assertThat(memory.forTenant("acme").get(id)).isEmpty();
    assertThat(memory.get(" " + id + " ")).map(MemoryItem::text).contains("a private thought");
  }
}

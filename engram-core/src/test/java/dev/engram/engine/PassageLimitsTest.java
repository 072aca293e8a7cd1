package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.TokenCounter;
import dev.engram.ValidationException;
import dev.engram.spi.MemoryInference;
import dev.engram.spi.StoredMemory;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.ScriptedInference;
import dev.engram.testing.TopicEmbedder;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The two passage limits: a message kept as said is split at {@link Engram.Builder#passageTokens}
 * and each of its passages is its own context, while a fact drawn from a message finds its context
 * in passages of {@link Engram.Builder#contextPassageTokens}. The inference is scripted and the
 * embedder a fake (no model runs in tests); the storage is the in-memory one, whose records keep
 * each memory's source context.
 */
class PassageLimitsTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final TopicEmbedder EMBEDDER = new TopicEmbedder(Map.of("release", 0), 4);
  private static final String QUESTION = "How should we ship the release?";

  /** About 60 cl100k tokens in three paragraphs: over a limit of 25, within one of 200. */
  private static final String ANSWER =
      "Ship the release on Friday after the smoke tests pass on the staging cluster.\n\n"
          + "Tag the commit as v2.4.1 and publish the container image to the registry first.\n\n"
          + "Then announce it in the team channel and watch the error rate for an hour.";

  private final ScriptedInference scripted = new ScriptedInference();

  private Memory open(InMemoryStorage storage, MemoryInference inference) {
    return Engram.builder()
        .storage(storage)
        .embedder(EMBEDDER)
        .inference(inference)
        .passageTokens(25)
        .contextPassageTokens(200)
        .build();
  }

  private static AddRequest.Builder exchange() {
    return AddRequest.builder(CHAT)
        .message(new Message(Role.USER, QUESTION, "ana", null, "s1:1"))
        .message(new Message(Role.ASSISTANT, ANSWER, "assistant", null, "s1:2"));
  }

  @Test
  void aMessageKeptAsSaidIsSplitAtThePassageLimitAndEachPassageIsItsOwnContext() throws Exception {
    assertThat(TokenCounter.cl100k().count(ANSWER)).isBetween(40, 200);
    InMemoryStorage storage = InMemoryStorage.create();
    try (Memory memory = open(storage, scripted)) {
      memory.add(exchange().infer(false).build());
      List<MemoryItem> passages =
          memory.list(CHAT).items().stream()
              .filter(m -> m.metadata().containsKey(MemoryItem.PASSAGE_START))
              .sorted(
                  Comparator.comparingInt(
                      m -> ((Number) m.metadata().get(MemoryItem.PASSAGE_START)).intValue()))
              .toList();
      assertThat(passages).hasSizeGreaterThanOrEqualTo(2);
      for (MemoryItem p : passages) {
        assertThat(TokenCounter.cl100k().count(p.text())).isLessThanOrEqualTo(25);
        assertThat(p.sourceIds()).containsExactly("s1:2");
        // neither the question before nor the rest of the answer: within the context limit, a
        // memory drawn from this message would have both
        StoredMemory stored = storage.records().get("default", p.id()).orElseThrow();
        assertThat(stored.context()).isEmpty();
      }
      // the question, within both limits, is whole and has no passage offsets
      assertThat(memory.list(CHAT).items())
          .anySatisfy(
              m -> {
                assertThat(m.text()).isEqualTo(QUESTION);
                assertThat(m.metadata()).doesNotContainKey(MemoryItem.PASSAGE_START);
              });
    }
  }

  @Test
  void aFactOfAMessageWithinTheContextLimitHasTheWholeExchangeAsItsContext() throws Exception {
    InMemoryStorage storage = InMemoryStorage.create();
    try (Memory memory = open(storage, scripted)) {
      scripted.next(
          new MemoryInference.Add(
              "The release ships on Friday", "assistant", Role.ASSISTANT, null, List.of("s1:2")));
      String id = memory.add(exchange().build()).events().get(0).id();
      StoredMemory stored = storage.records().get("default", id).orElseThrow();
      assertThat(stored.context()).isEqualTo(QUESTION + "\n" + ANSWER);
    }
  }

  @Test
  void verbatimInferenceSplitsAtThePassageLimitToo() throws Exception {
    InMemoryStorage storage = InMemoryStorage.create();
    try (Memory memory = open(storage, new VerbatimInference())) {
      memory.add(exchange().build());
      List<MemoryItem> items = memory.list(CHAT).items();
      assertThat(items)
          .filteredOn(m -> m.metadata().containsKey(MemoryItem.PASSAGE_START))
          .hasSizeGreaterThanOrEqualTo(2)
          .allSatisfy(
              m ->
                  assertThat(storage.records().get("default", m.id()).orElseThrow().context())
                      .isEmpty());
    }
  }

  @Test
  void aContextPassageLimitUnderOneIsRefusedByName() {
    assertThatThrownBy(
            () ->
                Engram.builder()
                    .storage(InMemoryStorage.create())
                    .embedder(EMBEDDER)
                    .contextPassageTokens(0)
                    .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("contextPassageTokens");
  }
}

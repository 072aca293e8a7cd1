package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Fusion;
import dev.engram.Memory;
import dev.engram.MemoryItem;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.TokenCounter;
import dev.engram.spi.MemoryInference;
import dev.engram.testing.InMemoryStorage;
import dev.engram.testing.ScriptedInference;
import dev.engram.testing.TopicEmbedder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ranking steps {@value Ranking#PASSAGES} and {@value Ranking#FACTS}: a passage of a message
 * split into n passages gives up {@code 0.08 * ln(n)} of its fused score, one of n facts drawn from
 * the same message {@code 0.04 * ln(n)}, a whole message or a lone fact nothing. The embedder is a
 * fake (no model runs in tests) whose only topic word is "cello", so the passage about the cello
 * and a short message of the same words are equally similar to the question; the storage is the
 * in-memory one.
 */
class MessageShareStepTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final Instant T = Instant.parse("2024-03-01T10:00:00Z");
  private static final String CELLO =
      "I practise the cello every evening after work because the concert in the old town hall is"
          + " only three weeks away now";
  private static final String QUESTION = "Who practises the cello?";

  private Memory memory;

  @BeforeEach
  void open() {
    memory = open(Fusion.COSINE);
  }

  private static Memory open(Fusion fusion) {
    return open(fusion, Engram.builder());
  }

  private static Memory open(Fusion fusion, Engram.Builder builder) {
    return builder
        .storage(InMemoryStorage.create())
        .embedder(new TopicEmbedder(Map.of("cello", 0), 3))
        .fusion(fusion)
        .passageTokens(30)
        .build();
  }

  @AfterEach
  void close() throws Exception {
    memory.close();
  }

  /**
   * Twelve paragraphs of about 25 tokens, one of them {@link #CELLO}: more than one paragraph never
   * fits a passage of 30, so each paragraph is a passage.
   */
  private static String longMessage() {
    return IntStream.range(0, 12)
        .mapToObj(
            i ->
                i == 5
                    ? CELLO + "."
                    : "On day "
                        + i
                        + " we walked along the river past the mill and the bakery and then"
                        + " came home for a late lunch in the garden.")
        .collect(Collectors.joining("\n\n"));
  }

  private void say(String sourceId, String text) {
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, text, "ana", T, sourceId))
            .infer(false)
            .timestamp(T)
            .build());
  }

  private List<SearchHit> search(Ranking ranking) {
    return memory
        .search(
            SearchRequest.builder(CHAT, QUESTION).topK(3).explain(true).ranking(ranking).build())
        .hits();
  }

  private static SearchHit from(List<SearchHit> hits, String sourceId) {
    return hits.stream()
        .filter(h -> h.memory().sourceIds().contains(sourceId))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void aPassageOfALongMessageGivesUpItsDiscountAndAWholeMessageNothing() {
    assertThat(TokenCounter.cl100k().count(CELLO)).isBetween(16, 30);
    say("m:long", longMessage());
    say("m:short", CELLO + "!");
    List<MemoryItem> passages =
        memory.list(CHAT).items().stream().filter(m -> m.sourceIds().contains("m:long")).toList();
    assertThat(passages).hasSize(12);
    passages.forEach(p -> assertThat(p.metadata()).containsEntry(MemoryItem.PASSAGE_COUNT, 12));

    List<SearchHit> without = search(Ranking.NONE);
    double passage = from(without, "m:long").details().fused();
    double whole = from(without, "m:short").details().fused();
    assertThat(passage).as("the same words, the same fused score").isCloseTo(whole, within(1e-9));

    List<SearchHit> with = search(Ranking.NONE.withPassages(true));
    assertThat(with.get(0).memory().sourceIds()).containsExactly("m:short");
    assertThat(from(with, "m:short").details().fused()).isCloseTo(whole, within(1e-9));
    assertThat(from(with, "m:long").details().fused())
        .isCloseTo(passage - MessageShareStep.PASSAGE_DISCOUNT * Math.log(12), within(1e-9));
    assertThat(from(with, "m:long").memory().text()).isEqualTo(CELLO + ".");
  }

  @Test
  void theDefaultRankingDiscountsPassagesAndOnlyThem() {
    assertThat(Ranking.DEFAULT.passages()).isTrue();
    say("m:long", longMessage());
    say("m:short", CELLO + "!");
    assertThat(search(Ranking.DEFAULT).get(0).memory().sourceIds()).containsExactly("m:short");
    MemoryItem whole =
        memory.list(CHAT).items().stream()
            .filter(m -> m.sourceIds().contains("m:short"))
            .findFirst()
            .orElseThrow();
    assertThat(whole.metadata()).doesNotContainKey(MemoryItem.PASSAGE_COUNT);
    assertThat(MessageShareStep.passages().discount(whole.metadata())).isZero();
  }

  /**
   * Under the fusion by reciprocal ranks, whose scores are no cosines, the step changes nothing: a
   * discount in a cosine's units would push every passage behind every whole message.
   */
  @Test
  void underTheFusionByRanksTheStepChangesNothing() throws Exception {
    memory.close();
    memory = open(Fusion.RRF);
    say("m:long", longMessage());
    say("m:short", CELLO + "!");
    List<SearchHit> without = search(Ranking.NONE);
    List<SearchHit> with = search(Ranking.NONE.withPassages(true));
    assertThat(with)
        .extracting(h -> h.memory().id())
        .containsExactlyElementsOf(without.stream().map(h -> h.memory().id()).toList());
    assertThat(from(with, "m:long").details().fused())
        .isEqualTo(from(without, "m:long").details().fused());
  }

  /**
   * Three facts drawn from one message carry their number, a lone fact of another message none;
   * with the same words, the lone fact comes first, and each of the three gives up {@code 0.04 *
   * ln(3)}. The inference is scripted (no model runs in tests).
   */
  @Test
  void oneOfSeveralFactsDrawnFromAMessageGivesUpItsDiscount() throws Exception {
    memory.close();
    ScriptedInference scripted = new ScriptedInference();
    memory = open(Fusion.COSINE, Engram.builder().inference(scripted));
    scripted.next(
        new MemoryInference.Add(CELLO + ".", "ana", Role.USER, T, List.of("m:long")),
        new MemoryInference.Add(
            "Ana walks along the river", "ana", Role.USER, T, List.of("m:long")),
        new MemoryInference.Add(
            "Ana bakes bread on Sundays", "ana", Role.USER, T, List.of("m:long")));
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, longMessage(), "ana", T, "m:long"))
            .build());
    scripted.next(new MemoryInference.Add(CELLO + "!", "ana", Role.USER, T, List.of("m:short")));
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, CELLO + "!", "ana", T, "m:short"))
            .build());
    List<MemoryItem> items = memory.list(CHAT).items();
    assertThat(items)
        .filteredOn(m -> m.sourceIds().contains("m:long"))
        .hasSize(3)
        .allSatisfy(m -> assertThat(m.metadata()).containsEntry(MemoryItem.FACT_COUNT, 3));
    assertThat(items)
        .filteredOn(m -> m.sourceIds().contains("m:short"))
        .singleElement()
        .satisfies(m -> assertThat(m.metadata()).doesNotContainKey(MemoryItem.FACT_COUNT));

    List<SearchHit> without = search(Ranking.NONE);
    double fact = from(without, "m:long").details().fused();
    assertThat(fact).isCloseTo(from(without, "m:short").details().fused(), within(1e-9));
    List<SearchHit> with = search(Ranking.NONE.withFacts(true));
    assertThat(with.get(0).memory().sourceIds()).containsExactly("m:short");
    assertThat(from(with, "m:long").details().fused())
        .isCloseTo(fact - MessageShareStep.FACT_DISCOUNT * Math.log(3), within(1e-9));
    assertThat(Ranking.DEFAULT.facts()).isTrue();
  }
}

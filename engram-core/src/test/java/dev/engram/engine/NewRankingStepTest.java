package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.AddRequest;
import dev.engram.Engram;
import dev.engram.Memory;
import dev.engram.Message;
import dev.engram.Ranking;
import dev.engram.Role;
import dev.engram.Scope;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.ValidationException;
import dev.engram.engine.RankFusion.Fused;
import dev.engram.testing.HashEmbedder;
import dev.engram.testing.InMemoryStorage;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A ranking step added as one class ({@link ReversedStep}) and one registry line ({@link
 * RankingSteps#with}), with nothing else changed: a request that names it runs it, and its hits'
 * {@code explain} say what it did. Also the registry of the standard steps: the names {@link
 * Ranking} knows, in the order they run.
 */
class NewRankingStepTest {
  private static final Scope CHAT = Scope.user("chat");
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2024-05-15T12:00:00Z"), ZoneOffset.UTC);
  private static final String QUERY = "apple pie recipe";

  /** The new step: the fused ranking, worst first. */
  static final class ReversedStep implements RankingStep {
    @Override
    public String name() {
      return "reversed";
    }

    @Override
    public Phase phase() {
      return Phase.FUSED;
    }

    @Override
    public List<Fused> fused(RankingPass pass, List<Fused> fused) {
      List<Fused> out = new ArrayList<>(fused);
      Collections.reverse(out);
      return out;
    }
  }

  private Memory memory;

  @BeforeEach
  void open() {
    memory =
        Engram.builder()
            .storage(InMemoryStorage.create())
            .embedder(new HashEmbedder())
            .clock(CLOCK)
            .build();
    Instant at = Instant.parse("2024-05-01T10:00:00Z");
    for (String text :
        List.of(
            "apple pie recipe with cinnamon",
            "the train was late this morning",
            "my apple tree needs pruning")) {
      memory.add(
          AddRequest.builder(CHAT)
              .message(new Message(Role.USER, text, "ann", at, null))
              .infer(false)
              .timestamp(at)
              .build());
    }
  }

  @AfterEach
  void close() throws Exception {
    memory.close();
  }

  private static SearchRequest request(Ranking ranking) {
    return SearchRequest.builder(CHAT, QUERY).topK(1).explain(true).ranking(ranking).build();
  }

  @Test
  void aStepOfOneClassAndOneRegistryLineRunsWhenARequestNamesIt() {
    RankingSteps steps = RankingSteps.STANDARD.with(new ReversedStep()); // the one registry line
    Memory reversing = ((EngramMemory) memory).withRankingSteps(steps);

    List<SearchHit> plain = reversing.search(request(Ranking.NONE)).hits();
    assertThat(plain)
        .extracting(h -> h.memory().text())
        .containsExactly("apple pie recipe with cinnamon");
    assertThat(plain.get(0).details().steps()).isEmpty();

    List<SearchHit> reversed = reversing.search(request(Ranking.NONE.with("reversed"))).hits();
    assertThat(reversed)
        .extracting(h -> h.memory().text())
        .doesNotContain("apple pie recipe with cinnamon");
    assertThat(reversed.get(0).details().steps()).containsOnlyKeys("reversed");
    assertThat(reversed.get(0).details().steps().get("reversed"))
        .startsWith("fused rank ")
        .contains(" -> 1,");
    assertThat(steps.names())
        .endsWith("feedback", "instructions", "reversed", "names", "diversity");
  }

  /**
   * The standard steps say what they did in explain: diversity the hit it kept after the others,
   * dates the hit of the period the query names, and a step that did nothing to a hit says nothing
   * of it.
   */
  @Test
  void theStandardStepsSayWhatTheyDidInExplain() {
    Instant t = Instant.parse("2024-03-01T10:00:00Z");
    for (String text : List.of("bob plays tennis", "bob plays tennis on sundays")) {
      memory.add(
          AddRequest.builder(CHAT)
              .message(new Message(Role.USER, text, "bob", t, "m:1"))
              .infer(false)
              .timestamp(t)
              .build());
    }
    memory.add(
        AddRequest.builder(CHAT)
            .message(new Message(Role.USER, "bob watched a chess game", "bob", t, "m:2"))
            .infer(false)
            .timestamp(t)
            .build());
    List<SearchHit> diverse =
        memory
            .search(
                SearchRequest.builder(CHAT, "bob plays")
                    .topK(6)
                    .explain(true)
                    .ranking(Ranking.NONE.withDiversity(true))
                    .build())
            .hits();
    assertThat(diverse)
        .filteredOn(h -> h.details().steps().containsKey(Ranking.DIVERSITY))
        .hasSize(1)
        .allSatisfy(h -> assertThat(h.memory().sourceIds()).containsExactly("m:1"));

    List<SearchHit> dated =
        memory
            .search(
                SearchRequest.builder(CHAT, "What did bob play in March 2024?")
                    .topK(10)
                    .explain(true)
                    .ranking(Ranking.NONE.withEventDates(true))
                    .build())
            .hits();
    assertThat(dated)
        .filteredOn(h -> h.memory().text().startsWith("bob"))
        .hasSize(3)
        .allSatisfy(
            h ->
                assertThat(h.details().steps().get(Ranking.DATES))
                    .startsWith("in a period the query names"));
    assertThat(dated)
        .filteredOn(h -> h.memory().text().startsWith("apple pie"))
        .hasSize(1)
        .allSatisfy(h -> assertThat(h.details().steps()).doesNotContainKey(Ranking.DATES));
  }

  @Test
  void anEngineWithoutTheStepRefusesARankingThatNamesIt() {
    assertThatThrownBy(() -> memory.search(request(Ranking.DEFAULT.with("reversed"))))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("ranking")
        .hasMessageContaining("reversed");
    assertThatThrownBy(() -> Ranking.NONE.with("Not A Name"))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void theStandardRegistryHoldsEveryNamedStepInTheOrderTheyRun() {
    assertThat(RankingSteps.STANDARD.names())
        .containsExactly(
            "hubs",
            "context",
            "passages",
            "facts",
            "dates",
            "neighbours",
            "feedback",
            "instructions",
            "names",
            "diversity")
        .containsExactlyInAnyOrderElementsOf(Ranking.STEPS);
    assertThat(Ranking.parse("default,diversity", "ranking").spec())
        .isEqualTo("dates,diversity,context,hubs,names,passages,facts,instructions");
    assertThat(Ranking.NONE.with("reversed").with(Ranking.HUBS).spec()).isEqualTo("hubs,reversed");
  }
}
